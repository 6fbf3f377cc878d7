// print-tensor: print() of a tensor (a name assigned from a torch/model call in the same function,
// or the receiver of .backward()). Printing reads the value: a host sync, and on XLA an execution.
#include <set>

#include "detectors/tensor_expr.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

class PrintTensor final : public Detector {
 public:
  std::string_view id() const override { return "print-tensor"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment", "call"}; }
  void reset() override { m_tensors.clear(); }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const std::int32_t fn = scope.context().function;
    if (ts_node_symbol(node) == k.assignment) {
      remember_tensor(node, fn, scope);
      return;
    }
    const TSNode callee = ts_node_child_by_field_id(node, k.f_function);
    if (ts_node_symbol(callee) == k.attribute &&
        scope.text(ts_node_child_by_field_id(callee, k.f_attribute)) == "backward") {
      const TSNode receiver = ts_node_child_by_field_id(callee, k.f_object);
      if (ts_node_symbol(receiver) == k.identifier) m_tensors.insert({fn, std::string(scope.text(receiver))});
      return;
    }
    if (ts_node_symbol(callee) != k.identifier || scope.text(callee) != "print" || !scope.resolve(callee).empty())
      return;
    std::string printed;
    parse::walk(ts_node_child_by_field_id(node, k.f_arguments), [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || !printed.empty()) return false;
      const TSSymbol kind = ts_node_symbol(step.node);
      if (kind == k.call || kind == k.attribute) return false;  // loss.item(), x.shape: not the tensor itself
      if (kind == k.identifier && m_tensors.count({fn, std::string(scope.text(step.node))}))
        printed = std::string(scope.text(step.node));
      return true;
    });
    if (!printed.empty()) scope.emit("print-tensor", node, "prints tensor '" + printed + "'");
  }

 private:
  void remember_tensor(TSNode assignment, std::int32_t fn, const NodeScope& scope) {
    const auto& k = scope.kinds();
    const TSNode left = ts_node_child_by_field_id(assignment, k.f_left);
    const TSNode right = ts_node_child_by_field_id(assignment, k.f_right);
    if (ts_node_symbol(left) != k.identifier || ts_node_is_null(right) || ts_node_symbol(right) != k.call) return;
    const TSNode callee = ts_node_child_by_field_id(right, k.f_function);
    const QualifiedName resolved = scope.resolve(callee);
    const std::string_view text = scope.text(callee);
    // torch.device(...), torch.accelerator.*, torch.cuda.* queries and dtype lookups are not tensors.
    const FactString& dotted = resolved.dotted();
    const bool not_a_tensor = dotted == "torch.device" ||
                              resolved.starts_with(QualifiedName::from_dotted("torch.accelerator")) ||
                              resolved.starts_with(QualifiedName::from_dotted("torch.cuda")) ||
                              resolved.starts_with(QualifiedName::from_dotted("torch.backends")) ||
                              dotted == "torch.get_default_dtype" || dotted == "torch.finfo" || dotted == "torch.iinfo";
    const bool tensor_call = (resolved.first_segment() == "torch" && !not_a_tensor) ||
                             (resolved.empty() && (text == "model" || text == "self.model" ||
                                                   text.find("criterion") != std::string_view::npos ||
                                                   text.find("loss_fn") != std::string_view::npos));
    if (tensor_call) m_tensors.insert({fn, std::string(scope.text(left))});
  }

  std::set<std::pair<std::int32_t, std::string>> m_tensors;
};

}  // namespace

std::unique_ptr<Detector> make_PrintTensor() {
  return std::make_unique<PrintTensor>();
}

}  // namespace tr2audit::detectors
