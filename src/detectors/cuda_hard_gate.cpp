// cuda-hard-gate: code that refuses to run without CUDA. `assert torch.cuda.is_available()`,
// `if not torch.cuda.is_available(): raise ...`, and `if <CUDA check>: ... else: raise ...` (the CUDA
// branch is the only way through) are hard requirements, not portable fallbacks.
#include "tr2audit/detectors/detector.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

bool is_cuda_probe(std::string_view callee) {
  return callee == "torch.cuda.is_available" || callee == "torch.cuda.device_count" ||
         callee == "torch.backends.cudnn.is_available";
}

class CudaHardGate final : public Detector {
 public:
  std::string_view id() const override { return "cuda-hard-gate"; }
  std::vector<std::string_view> node_kinds() const override { return {"assert_statement", "if_statement"}; }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    if (ts_node_symbol(node) == k.assert_statement) {
      const TSNode condition = ts_node_named_child(node, 0);
      if (probes_cuda(condition, scope)) scope.emit(id(), node, "assert " + std::string(scope.text(condition)));
      return;
    }
    const TSNode condition = ts_node_child_by_field_id(node, k.f_condition);
    if (!probes_cuda(condition, scope)) return;
    const bool negated = ts_node_symbol(condition) == k.not_operator;
    const TSNode body = ts_node_child_by_field_id(node, k.f_consequence);
    if (negated && first_is_raise(body, scope)) {
      scope.emit(id(), node, "raises when " + std::string(scope.text(condition)).substr(0, 80));
      return;
    }
    const std::uint32_t count = ts_node_named_child_count(node);
    for (std::uint32_t i = 0; i < count; ++i) {
      const TSNode clause = ts_node_named_child(node, i);
      if (ts_node_symbol(clause) == k.else_clause && first_is_raise(ts_node_child_by_field_id(clause, k.f_body), scope))
        scope.emit(id(), node, "raises unless " + std::string(scope.text(condition)).substr(0, 80));
    }
  }

 private:
  static bool first_is_raise(TSNode block, NodeScope& scope) {
    const TSNode first = ts_node_named_child(block, 0);
    return !ts_node_is_null(first) && ts_node_symbol(first) == scope.kinds().raise_statement;
  }

  static bool probes_cuda(TSNode condition, NodeScope& scope) {
    if (ts_node_is_null(condition)) return false;
    bool found = false;
    parse::walk(condition, [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || found) return false;
      if (ts_node_symbol(step.node) == scope.kinds().call)
        found = is_cuda_probe(scope.resolve(ts_node_child_by_field_id(step.node, scope.kinds().f_function)).dotted());
      return !found;
    });
    return found;
  }
};

}  // namespace

std::unique_ptr<Detector> make_CudaHardGate() {
  return std::make_unique<CudaHardGate>();
}

}  // namespace tr2audit::detectors
