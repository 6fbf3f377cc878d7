// Parses one YAML document in two bounded passes: yaml-cpp's event parser (at most two documents,
// at most max_events events, so a stray top-level ',' cannot loop) and then YAML::Load for the node,
// whose alias-expanded size is checked with an explicit stack before anybody walks it.
#include "tr2audit/core/yaml_load.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <sstream>
#include <utility>
#include <vector>

namespace tr2audit {
namespace {

struct TooManyEvents {
  YAML::Mark mark;
};

/// Counts events and gives up (by throwing out of the parser) past the budget.
class CountingHandler : public YAML::EventHandler {
 public:
  explicit CountingHandler(std::size_t budget) : m_budget(budget) {}
  void OnDocumentStart(const YAML::Mark& mark) override { tick(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { tick(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { tick(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { tick(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    tick(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    tick(mark);
  }
  void OnMapEnd() override {}
  std::size_t events() const { return m_events; }
  YAML::Mark last_mark() const { return m_last; }

 private:
  void tick(const YAML::Mark& mark) {
    m_last = mark;
    if (++m_events > m_budget) throw TooManyEvents{mark};
  }
  std::size_t m_budget;
  std::size_t m_events = 0;
  YAML::Mark m_last = YAML::Mark::null_mark();
};

YamlDocument refuse(const YAML::Mark& mark, std::string message) {
  YamlDocument out;
  if (!mark.is_null() && mark.line >= 0) {
    out.line = static_cast<std::uint32_t>(mark.line + 1);
    out.column = static_cast<std::uint32_t>(mark.column + 1);
  }
  out.error = std::move(message);
  return out;
}

}  // namespace

std::size_t expanded_node_count(const YAML::Node& root, std::size_t budget) {
  std::size_t count = 0;
  std::vector<YAML::Node> stack{root};
  while (!stack.empty() && count <= budget) {
    const YAML::Node node = stack.back();  // a handle: copying it copies a pointer
    stack.pop_back();
    ++count;
    if (node.IsSequence()) {
      for (const auto& item : node) stack.push_back(item);
    } else if (node.IsMap()) {
      for (const auto& pair : node) {
        stack.push_back(pair.first);
        stack.push_back(pair.second);
      }
    }
  }
  return count;
}

YamlDocument load_yaml_document(std::string_view text, const YamlLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return refuse(YAML::Mark::null_mark(), "YAML file of " + std::to_string(text.size()) + " bytes is over the " +
                                               std::to_string(limits.max_bytes) + "-byte limit");
  }
  const std::string owned(text);
  try {
    std::istringstream in(owned);
    YAML::Parser parser(in);
    CountingHandler handler(limits.max_events);
    if (parser.HandleNextDocument(handler)) {
      // A second document, or one of the empty "documents" yaml-cpp 0.7 yields forever for a
      // stray top-level ',': either way the file is refused here, after at most two calls.
      if (parser.HandleNextDocument(handler)) {
        return refuse(handler.last_mark(),
                      "a file must hold exactly one YAML document (a stray ',' outside [..] or {..}?)");
      }
    }
  } catch (const TooManyEvents& e) {
    return refuse(e.mark, "YAML file has more than " + std::to_string(limits.max_events) + " nodes");
  } catch (const YAML::DeepRecursion& e) {
    return refuse(e.mark, "YAML nested more than " + std::to_string(e.depth()) + " levels deep");
  } catch (const YAML::Exception& e) {
    return refuse(e.mark, "invalid YAML: " + e.msg);
  }
  YamlDocument out;
  try {
    out.root = YAML::Load(owned);
  } catch (const YAML::Exception& e) {
    return refuse(e.mark, "invalid YAML: " + e.msg);
  }
  if (expanded_node_count(out.root, limits.max_expanded_nodes) > limits.max_expanded_nodes) {
    return refuse(out.root.Mark(), "YAML aliases expand to more than " + std::to_string(limits.max_expanded_nodes) +
                                       " nodes (an alias bomb?)");
  }
  out.ok = true;
  return out;
}

}  // namespace tr2audit
