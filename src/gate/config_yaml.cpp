// YAML config -> RawNode, keeping yaml-cpp's marks (0-based there, 1-based here).
#include <yaml-cpp/yaml.h>

#include "config_raw.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::gate {
namespace {

constexpr int k_max_depth = 8;

bool convert(const YAML::Node& node, RawNode& out, const std::string& path, std::vector<Problem>& problems, int depth) {
  out.line = static_cast<std::uint32_t>(node.Mark().line + 1);
  out.column = static_cast<std::uint32_t>(node.Mark().column + 1);
  if (depth > k_max_depth) {
    problems.push_back(Problem{ProblemKind::invalid_config, path, out.line, out.column, "nested too deeply"});
    return false;
  }
  if (node.IsSequence()) {
    out.kind = RawNode::Kind::list;
    for (const auto& item : node) {
      RawNode child;
      if (!convert(item, child, path, problems, depth + 1)) return false;
      out.items.push_back(std::move(child));
    }
  } else if (node.IsMap()) {
    out.kind = RawNode::Kind::map;
    for (const auto& pair : node) {
      RawEntry entry;
      entry.key = pair.first.Scalar();
      entry.line = static_cast<std::uint32_t>(pair.first.Mark().line + 1);
      entry.column = static_cast<std::uint32_t>(pair.first.Mark().column + 1);
      if (!convert(pair.second, entry.value, path, problems, depth + 1)) return false;
      out.entries.push_back(std::move(entry));
    }
  } else {
    out.kind = RawNode::Kind::scalar;
    out.scalar = node.IsNull() ? "" : node.Scalar();
    out.quoted = node.Tag() == "!";
  }
  return true;
}

}  // namespace

std::optional<RawNode> read_yaml_config(std::string_view text, const std::string& path,
                                        std::vector<Problem>& problems) {
  const rules::YamlDocument document = rules::load_yaml_document(text);
  if (!document.ok) {
    problems.push_back(Problem{ProblemKind::invalid_config, path, document.line, document.column, document.error});
    return std::nullopt;
  }
  const YAML::Node root = document.root;
  RawNode out;
  out.kind = RawNode::Kind::map;
  out.line = out.column = 1;
  if (!root || root.IsNull()) return out;
  if (!root.IsMap()) {
    problems.push_back(Problem{ProblemKind::invalid_config, path, 1, 1, "a config file is a mapping of settings"});
    return std::nullopt;
  }
  if (!convert(root, out, path, problems, 0)) return std::nullopt;
  return out;
}

}  // namespace tr2audit::gate
