// random-structure: Python randomness deciding which layers run (`if random.random() < p: continue`,
// stochastic depth / layer drop). Each step may trace a different graph.
#include "detectors/tensor_expr.hpp"

namespace tr2audit::detectors {
namespace {

class RandomStructure final : public Detector {
 public:
  std::string_view id() const override { return "random-structure"; }
  std::vector<std::string_view> node_kinds() const override { return {"if_statement", "conditional_expression"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSNode condition = ts_node_symbol(node) == k.conditional_expression
                                 ? ts_node_named_child(node, 1)
                                 : ts_node_child_by_field_id(node, k.f_condition);
    if (ts_node_is_null(condition) || !calls_random(condition, scope)) return;
    std::string detail = "structure chosen by " + std::string(scope.text(condition).substr(0, 100));
    // `if self.self_condition and random() < 0.5:`: the draw happens only where the left operand holds.
    if (const TSNode left = and_left_operand(condition, scope); !ts_node_is_null(left) && !calls_random(left, scope))
      return scope.emit_guarded("random-structure", condition, std::move(detail), left);
    scope.emit("random-structure", condition, std::move(detail));
  }
};

}  // namespace

std::unique_ptr<Detector> make_RandomStructure() {
  return std::make_unique<RandomStructure>();
}

}  // namespace tr2audit::detectors
