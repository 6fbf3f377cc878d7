#include "detectors/value_flow.hpp"

#include <vector>

#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool mentions_any(std::string_view text, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (mentions(text, name)) return true;
  }
  return false;
}

}  // namespace

bool mentions(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool start_ok = at == 0 || (!is_word_char(text[at - 1]) && text[at - 1] != '.');
    const bool end_ok = at + name.size() >= text.size() || !is_word_char(text[at + name.size()]);
    if (start_ok && end_ok) return true;
  }
  return false;
}

TSNode enclosing_body(TSNode node, const NodeScope& scope) {
  const auto& k = scope.kinds();
  TSNode last = node;
  for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
    last = n;
    if (ts_node_symbol(n) == k.function_definition) return ts_node_child_by_field_id(n, k.f_body);
  }
  return last;
}

TSNode find_use(TSNode body, std::uint32_t after_byte, const std::string& name, const NodeScope& scope,
                const std::function<bool(std::string_view)>& is_sink,
                const std::function<bool(TSNode call, const std::vector<std::string>& names)>& accepts) {
  const auto& k = scope.kinds();
  std::vector<std::string> names{name};
  TSNode found{};
  bool done = false;
  parse::walk(body, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || done) return false;
    const TSNode node = step.node;
    const TSSymbol kind = ts_node_symbol(node);
    if (ts_node_end_byte(node) <= after_byte) return false;  // wholly before the value exists
    if (kind == k.function_definition || kind == k.class_definition) return false;
    if (ts_node_start_byte(node) < after_byte) return true;  // encloses the starting point: look inside
    if (kind == k.assignment) {
      const TSNode left = ts_node_child_by_field_id(node, k.f_left);
      const TSNode right = ts_node_child_by_field_id(node, k.f_right);
      if (!ts_node_is_null(right) && ts_node_symbol(left) == k.identifier && mentions_any(scope.text(right), names))
        names.emplace_back(scope.text(left));
    } else if (kind == k.call) {
      const std::string_view callee = scope.text(ts_node_child_by_field_id(node, k.f_function));
      if (is_sink(callee) && mentions_any(scope.text(ts_node_child_by_field_id(node, k.f_arguments)), names) &&
          (!accepts || accepts(node, names))) {
        found = node;
        done = true;
        return false;
      }
    }
    return true;
  });
  return found;
}

}  // namespace tr2audit::detectors
