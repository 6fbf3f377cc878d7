// data-dependent-branch / data-dependent-assert: Python control flow decided by a tensor's value
// (`if x.max() > t:`, `while out.isnan().any():`, `assert torch.all(p >= 0)`, and as an assert an `if`
// with no else whose body only raises: `if mask[:, 0].sum() != B: raise ...`), read in the condition
// itself or through a local name of the same function that holds such a value
// (`seq_len = torch.max(position_ids) + 1` ... `if seq_len > self.cached:`). Under a compiled graph
// each is a graph break or a recompile, and on XLA a forced execution.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "detectors/tensor_expr.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

/// A value that is already a Python number or list: `.item()`, `.tolist()`, `.numel()`, `.size()`,
/// `int(...)`, `len(...)`. Its device read (if any) happened inside and is reported there; a branch
/// on the Python value is not another one.
bool python_value(TSNode expr, const NodeScope& scope) {
  const auto& k = scope.kinds();
  if (ts_node_symbol(expr) != k.call) return false;
  const TSNode fn = ts_node_child_by_field_id(expr, k.f_function);
  if (ts_node_symbol(fn) == k.identifier) {
    const std::string_view name = scope.text(fn);
    return name == "int" || name == "float" || name == "bool" || name == "len" || name == "round";
  }
  if (ts_node_symbol(fn) != k.attribute) return false;
  const std::string_view method = scope.text(ts_node_child_by_field_id(fn, k.f_attribute));
  return method == "item" || method == "tolist" || method == "numel" || method == "size" || method == "dim";
}

/// `x.item()`: the device read the item rules report where it is.
bool is_item_call(TSNode expr, const NodeScope& scope) {
  const auto& k = scope.kinds();
  const TSNode fn = ts_node_child_by_field_id(expr, k.f_function);
  return ts_node_symbol(fn) == k.attribute && scope.text(ts_node_child_by_field_id(fn, k.f_attribute)) == "item";
}

/// An if with no elif/else whose body only raises.
bool only_raises(TSNode if_statement, const NodeScope& scope) {
  const auto& k = scope.kinds();
  if (!ts_node_is_null(ts_node_child_by_field_id(if_statement, k.f_alternative))) return false;
  const TSNode body = ts_node_child_by_field_id(if_statement, k.f_consequence);
  if (ts_node_is_null(body)) return false;
  bool any = false;
  for (std::uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    const TSSymbol kind = ts_node_symbol(ts_node_named_child(body, i));
    if (kind == k.comment) continue;
    if (kind != k.raise_statement) return false;
    any = true;
  }
  return any;
}

class DataDependentBranch final : public Detector {
 public:
  std::string_view id() const override { return "data-dependent-branch"; }
  std::vector<std::string_view> node_kinds() const override {
    return {"if_statement", "elif_clause", "while_statement", "conditional_expression", "assert_statement",
            "assignment",   "call"};
  }
  void reset() override {
    m_tensor_locals.clear();
    m_buffers.clear();
  }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSSymbol kind = ts_node_symbol(node);
    if (kind == k.assignment) {
      remember_assignment(node, scope);
      return;
    }
    if (kind == k.call) {
      remember_collective(node, scope);
      remember_buffer(node, scope);
      return;
    }
    TSNode condition;
    if (kind == k.conditional_expression)
      condition = ts_node_named_child(node, 1);
    else if (kind == k.assert_statement)
      condition = ts_node_named_child(node, 0);
    else
      condition = ts_node_child_by_field_id(node, k.f_condition);
    if (ts_node_is_null(condition)) return;
    // `if has_data.item() == 0:` is one cause, the `.item()` read, and the item rules report it there. An
    // assert keeps its own finding: a removable check is what the port changes.
    // `if mask[:, 0].sum() != B: raise NotImplementedError(...)` is an assert written out: a removable check.
    const bool is_assert = kind == k.assert_statement;
    const bool raises = kind == k.if_statement && only_raises(node, scope);
    const auto item_call = [&](TSNode call) { return !is_assert && is_item_call(call, scope); };
    std::string read = find_value_read(condition, scope, item_call);
    if (read.empty()) read = local_value_read(condition, scope);
    if (read.empty()) read = buffer_value_read(condition, scope);
    if (read.empty()) return;
    std::string detail = std::string(is_assert ? "assert " : raises ? "raises on " : "branch on ") + read;
    const std::string_view pattern = is_assert || raises ? "data-dependent-assert" : "data-dependent-branch";
    // `if padding_mask is not None and padding_mask.any():`: the read happens only where the left operand holds.
    if (const TSNode left = and_left_operand(condition, scope);
        !ts_node_is_null(left) && find_value_read(left, scope, item_call).empty() &&
        local_value_read(left, scope).empty() && buffer_value_read(left, scope).empty())
      return scope.emit_guarded(pattern, condition, std::move(detail), left);
    scope.emit(pattern, condition, std::move(detail));
  }

 private:
  using Key = std::pair<std::int32_t, std::string>;  ///< (function index in the file, local name)
  static constexpr std::size_t k_max_value_text = 80;

  /// `name = <expr that reads a tensor value>` makes name a device value until it is reassigned.
  void remember_assignment(TSNode node, const NodeScope& scope) {
    const auto& k = scope.kinds();
    if (scope.context().function < 0) return;  // module level: no forward or step decides on it
    const TSNode left = ts_node_child_by_field_id(node, k.f_left);
    const TSNode right = ts_node_child_by_field_id(node, k.f_right);
    if (ts_node_is_null(left) || ts_node_symbol(left) != k.identifier) return;
    if (m_tensor_locals.empty() && (ts_node_is_null(right) || scope.text(right).find('(') == std::string_view::npos))
      return;  // no call: no value read, and no earlier one to forget
    Key key{scope.context().function, std::string(scope.text(left))};
    // `clip = min(max_norm / (float(norm.item()) + 1e-6), 1.0)`: reads converted to Python numbers make a
    // Python number (the `.item()` is reported where it is).
    const auto converted = [&](TSNode call) { return python_value(call, scope); };
    const bool tensor = !ts_node_is_null(right) && !python_value(right, scope);
    if (!tensor || find_value_read(right, scope, converted).empty()) {
      m_tensor_locals.erase(key);
      return;
    }
    std::string_view value = scope.text(right);
    value = value.substr(0, std::min(value.find('\n'), k_max_value_text));  // the message quotes it
    m_tensor_locals[std::move(key)] = std::string(value);
  }

  /// `dist.all_reduce(has_data)`: a collective writes its result into the tensor it is handed, so a branch on
  /// that local afterwards (`if has_data < world_size: break`) reads a value the devices computed.
  void remember_collective(TSNode call, const NodeScope& scope) {
    const auto& k = scope.kinds();
    if (scope.context().function < 0) return;
    const std::string_view callee = scope.text(ts_node_child_by_field_id(call, k.f_function));
    const auto dot = callee.rfind('.');
    const std::string_view verb = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
    if (verb != "all_reduce" && verb != "broadcast" && verb != "reduce") return;
    if (dot != std::string_view::npos) {  // `dist.all_reduce`, `torch.distributed.all_reduce`, `xm.all_reduce`
      const std::string_view receiver = callee.substr(0, dot);
      if (receiver != "dist" && receiver != "torch.distributed" && receiver != "xm" && receiver != "distributed")
        return;
    }
    const TSNode args = ts_node_child_by_field_id(call, k.f_arguments);
    // PyTorch/XLA's `xm.all_reduce(reduce_type, inputs, ...)` takes the operation first, the tensors second.
    const bool xla = dot != std::string_view::npos && callee.substr(0, dot) == "xm" && verb != "broadcast";
    const TSNode first = ts_node_is_null(args) ? args : ts_node_named_child(args, xla ? 1 : 0);
    if (ts_node_is_null(first) || ts_node_symbol(first) != k.identifier) return;
    std::string value(callee);
    value += "(";
    value += scope.text(first);
    value += ")";
    m_tensor_locals[Key{scope.context().function, std::string(scope.text(first))}] = std::move(value);
  }

  /// `self.register_buffer("freqs_cos", ...)`: the attribute is a tensor the module moves to the device.
  void remember_buffer(TSNode call, const NodeScope& scope) {
    const auto& k = scope.kinds();
    if (scope.context().klass < 0) return;
    const std::string_view callee = scope.text(ts_node_child_by_field_id(call, k.f_function));
    if (callee != "self.register_buffer") return;
    const TSNode args = ts_node_child_by_field_id(call, k.f_arguments);
    const TSNode first = ts_node_is_null(args) ? args : ts_node_named_child(args, 0);
    if (ts_node_is_null(first) || ts_node_symbol(first) != k.string) return;
    const std::string_view quoted = scope.text(first);  // "freqs_cos" or 'freqs_cos': a plain literal only
    if (quoted.size() < 3 || (quoted.front() != '"' && quoted.front() != '\'') || quoted.back() != quoted.front())
      return;
    m_buffers.emplace(scope.context().klass, std::string(quoted.substr(1, quoted.size() - 2)));
  }

  /// `if self.freqs_cos[0, 0] == 0:` in a method of the class that registered the buffer: comparing an
  /// element (or the whole) of a device buffer reads its value. The comparison's text; "" if none.
  std::string buffer_value_read(TSNode condition, const NodeScope& scope) const {
    if (m_buffers.empty() || scope.context().klass < 0) return {};
    const auto& k = scope.kinds();
    const std::int32_t klass = scope.context().klass;
    const auto is_buffer = [&](TSNode operand) {
      if (ts_node_symbol(operand) == k.subscript) operand = ts_node_child_by_field_id(operand, k.f_value);
      const std::string_view text = scope.text(operand);
      return ts_node_symbol(operand) == k.attribute && starts_with(text, "self.") &&
             m_buffers.count({klass, std::string(text.substr(5))}) != 0;
    };
    std::string found;
    parse::walk(condition, [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || !found.empty()) return false;
      const TSSymbol kind = ts_node_symbol(step.node);
      if (kind == k.lambda || kind == k.call) return false;
      if (kind != k.comparison_operator) return true;
      if (identity_test(step.node)) return false;
      for (std::uint32_t i = 0; i < ts_node_named_child_count(step.node); ++i) {
        if (is_buffer(ts_node_named_child(step.node, i))) {
          found = std::string(scope.text(step.node).substr(0, k_max_value_text));
          break;
        }
      }
      return false;
    });
    return found;
  }

  /// "name (= <its value>)" for the first name in condition that holds a device value; "" if none.
  /// Identity tests (`x is None`) and names only called or dotted into do not read the value.
  std::string local_value_read(TSNode condition, const NodeScope& scope) const {
    if (m_tensor_locals.empty()) return {};
    const auto& k = scope.kinds();
    const std::int32_t function = scope.context().function;
    std::string found;
    parse::walk(condition, [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || !found.empty()) return false;
      const TSSymbol kind = ts_node_symbol(step.node);
      if (kind == k.lambda || kind == k.string || kind == k.call || kind == k.attribute) return false;
      if (kind == k.comparison_operator && identity_test(step.node)) return false;
      if (kind != k.identifier) return true;
      const auto it = m_tensor_locals.find(Key{function, std::string(scope.text(step.node))});
      if (it != m_tensor_locals.end()) found = it->first.second + " (= " + it->second + ")";
      return false;
    });
    return found;
  }

  /// `x is None` / `x is not None`: the comparison's operator tokens, not its text.
  static bool identity_test(TSNode comparison) {
    for (std::uint32_t i = 0; i < ts_node_child_count(comparison); ++i) {
      const std::string_view type = ts_node_type(ts_node_child(comparison, i));
      if (type == "is" || type == "is not") return true;
    }
    return false;
  }

  std::map<Key, std::string> m_tensor_locals;
  std::set<std::pair<std::int32_t, std::string>> m_buffers;  ///< (class index, buffer name) registered so far
};

}  // namespace

std::unique_ptr<Detector> make_DataDependentBranch() {
  return std::make_unique<DataDependentBranch>();
}

}  // namespace tr2audit::detectors
