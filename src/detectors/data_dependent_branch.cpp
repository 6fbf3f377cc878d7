// data-dependent-branch / data-dependent-assert: Python control flow decided by a tensor's value
// (`if x.max() > t:`, `while out.isnan().any():`, `assert torch.all(p >= 0)`). Under a compiled
// graph each is a graph break or a recompile, and on XLA a forced execution.
#include "detectors/tensor_expr.hpp"

namespace tr2audit::detectors {
namespace {

class DataDependentBranch final : public Detector {
 public:
  std::string_view id() const override { return "data-dependent-branch"; }
  std::vector<std::string_view> node_kinds() const override {
    return {"if_statement", "elif_clause", "while_statement", "conditional_expression", "assert_statement"};
  }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSSymbol kind = ts_node_symbol(node);
    TSNode condition;
    if (kind == k.conditional_expression)
      condition = ts_node_named_child(node, 1);
    else if (kind == k.assert_statement)
      condition = ts_node_named_child(node, 0);
    else
      condition = ts_node_child_by_field_id(node, k.f_condition);
    if (ts_node_is_null(condition)) return;
    std::string read = find_value_read(condition, scope);
    if (read.empty()) return;
    const bool is_assert = kind == k.assert_statement;
    std::string detail = std::string(is_assert ? "assert " : "branch on ") + read;
    scope.emit(is_assert ? "data-dependent-assert" : "data-dependent-branch", condition, std::move(detail));
  }
};

}  // namespace

std::unique_ptr<Detector> make_DataDependentBranch() {
  return std::make_unique<DataDependentBranch>();
}

}  // namespace tr2audit::detectors
