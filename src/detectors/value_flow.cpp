#include "detectors/value_flow.hpp"

#include <vector>

#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

bool mentions_any(std::string_view text, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (mentions_name(text, name)) return true;
  }
  return false;
}

}  // namespace

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
