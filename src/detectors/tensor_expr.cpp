#include "detectors/tensor_expr.hpp"

#include <string_view>

#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

bool in_list(std::string_view name, std::initializer_list<std::string_view> list) {
  for (std::string_view item : list) {
    if (item == name) return true;
  }
  return false;
}

bool is_value_method(std::string_view name) {
  return in_list(name, {"item",     "any",   "all",      "max",     "min",           "sum",    "mean",   "norm",
                        "isnan",    "isinf", "isfinite", "nonzero", "count_nonzero", "argmax", "argmin", "equal",
                        "allclose", "std",   "var",      "amax",    "amin",          "prod",   "tolist"});
}

bool is_value_torch_function(std::string_view last) {
  return in_list(last, {"any", "all", "equal", "allclose", "max", "min", "sum", "mean", "count_nonzero", "is_nonzero",
                        "isnan", "isinf", "isfinite", "norm", "argmax", "argmin", "amax", "amin"});
}

bool is_non_tensor_library(const QualifiedName& name) {
  const auto first = name.first_segment();
  return first == "numpy" || first == "math" || first == "random" || first == "statistics" || first == "builtins";
}

}  // namespace

bool value_read_at(TSNode call, const NodeScope& scope) {
  const auto& k = scope.kinds();
  const TSNode fn = ts_node_child_by_field_id(call, k.f_function);
  const QualifiedName callee = scope.resolve(fn);
  if (!callee.empty()) {
    const TSNode args = ts_node_child_by_field_id(call, k.f_arguments);
    const bool host_argument =
        !ts_node_is_null(args) && ts_node_named_child_count(args) > 0 && scope.host_value(ts_node_named_child(args, 0));
    return callee.first_segment() == "torch" && callee.segments().size() == 2 &&
           is_value_torch_function(callee.last_segment()) && !host_argument;
  }
  if (ts_node_symbol(fn) != k.attribute) return false;
  const std::string_view method = scope.text(ts_node_child_by_field_id(fn, k.f_attribute));
  const TSNode receiver = ts_node_child_by_field_id(fn, k.f_object);
  const QualifiedName receiver_name = scope.resolve(receiver);
  if (!is_value_method(method) || (!receiver_name.empty() && is_non_tensor_library(receiver_name))) return false;
  if (scope.host_value(receiver)) return false;  // a tensor built from Python values: no device read
  if (ts_node_symbol(receiver) == k.call) {      // np.abs(x).max(): a library result, not a tensor
    const QualifiedName inner = scope.resolve(ts_node_child_by_field_id(receiver, k.f_function));
    if (!inner.empty() && is_non_tensor_library(inner)) return false;
  }
  return true;
}

std::string find_value_read(TSNode expr, const NodeScope& scope, const std::function<bool(TSNode)>& skip) {
  const auto& k = scope.kinds();
  std::string found;
  parse::walk(expr, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || !found.empty()) return false;
    const TSSymbol kind = ts_node_symbol(step.node);
    if (kind == k.lambda || kind == k.string) return false;
    if (kind != k.call) return true;
    if (skip && skip(step.node)) return false;
    if (value_read_at(step.node, scope)) {
      found = std::string(scope.text(step.node));
      return false;
    }
    return true;
  });
  return found;
}

TSNode and_left_operand(TSNode condition, const NodeScope& scope) {
  const auto& k = scope.kinds();
  while (ts_node_symbol(condition) == k.parenthesized_expression && ts_node_named_child_count(condition) == 1)
    condition = ts_node_named_child(condition, 0);
  if (ts_node_symbol(condition) != k.boolean_operator ||
      scope.text(ts_node_child_by_field_id(condition, k.f_operator)) != "and")
    return TSNode{};
  return ts_node_child_by_field_id(condition, k.f_left);
}

bool is_mask_expression(TSNode expr, const NodeScope& scope) {
  const auto& k = scope.kinds();
  while (ts_node_symbol(expr) == k.parenthesized_expression && ts_node_named_child_count(expr) == 1)
    expr = ts_node_named_child(expr, 0);
  const TSSymbol kind = ts_node_symbol(expr);
  if (kind == k.comparison_operator) {
    // x > 0, mask == 1; but not `a is None` or `"k" in d`.
    const std::string_view text = scope.text(expr);
    return text.find(" is ") == std::string_view::npos && text.find(" in ") == std::string_view::npos;
  }
  if (kind == k.unary_operator) return scope.text(expr).substr(0, 1) == "~";
  if (kind == k.binary_operator) {
    const std::string_view op = scope.text(ts_node_child_by_field_id(expr, k.f_operator));
    return (op == "&" || op == "|") && is_mask_expression(ts_node_child_by_field_id(expr, k.f_left), scope);
  }
  if (kind != k.call) return false;
  const TSNode fn = ts_node_child_by_field_id(expr, k.f_function);
  const QualifiedName callee = scope.resolve(fn);
  std::string_view last = callee.last_segment();
  if (callee.empty() && ts_node_symbol(fn) == k.attribute)
    last = scope.text(ts_node_child_by_field_id(fn, k.f_attribute));
  if (!callee.empty() && callee.first_segment() != "torch") return false;
  if (last == "any" || last == "all") {
    // `is_eos.any(dim=1)`, `torch.any(m, dim=-1)`: a reduction along a dimension is a mask per row; a full
    // one (`m.any()`, `torch.any(m)`) is a single truth value.
    const TSNode args = ts_node_child_by_field_id(expr, k.f_arguments);
    const std::uint32_t given = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    return given > (callee.empty() ? 0U : 1U);
  }
  return in_list(last, {"isnan", "isinf", "isfinite", "eq", "ne", "gt", "lt", "ge", "le", "logical_and", "logical_or",
                        "logical_not", "bool", "isin"});
}

bool calls_random(TSNode expr, const NodeScope& scope) {
  const auto& k = scope.kinds();
  bool found = false;
  parse::walk(expr, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || found) return false;
    if (ts_node_symbol(step.node) == k.call) {
      const QualifiedName callee = scope.resolve(ts_node_child_by_field_id(step.node, k.f_function));
      const FactString& d = callee.dotted();
      found = callee.first_segment() == "random" || callee.starts_with("numpy.random") || d == "torch.rand" ||
              d == "torch.randint" || d == "torch.rand_like" || d == "torch.bernoulli";
    }
    return !found;
  });
  return found;
}

}  // namespace tr2audit::detectors
