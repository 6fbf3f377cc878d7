// cuda-hard-gate: code that refuses to run without CUDA. `assert torch.cuda.is_available()`,
// `if not torch.cuda.is_available(): raise ...`, and `if <CUDA check>: ... else: raise ...` (the CUDA
// branch is the only way through) are hard requirements, not portable fallbacks. A CUDA check is a
// CUDA/cuDNN runtime probe, a tensor's `.is_cuda`, `torch.backends.cudnn.enabled`, `torch.version.cuda`,
// or a call of a helper named for CUDA/cuDNN (`check_cudnn_version_and_warn(...)`). A check that
// selects a fast path and falls back otherwise (`if x.is_cuda: ... else: portable(...)`) and an
// assertion that code is *not* on CUDA (`assert not x.is_cuda`) are not gates.
#include "tr2audit/detectors/detector.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

bool is_cuda_probe(std::string_view callee) {
  return callee == "torch.cuda.is_available" || callee == "torch.cuda.device_count" ||
         callee == "torch.backends.cudnn.is_available" || callee == "torch.backends.cudnn.version" ||
         callee == "torch.cuda.get_device_capability" || callee == "torch.cuda.is_bf16_supported";
}

/// A helper of the repo or a library whose name says it checks CUDA or cuDNN (`check_cudnn_version`,
/// `is_cuda_available`); torch's own API is judged by name above, and `x.cuda()` is a transfer.
bool is_cuda_named_check(std::string_view callee) {
  if (callee.starts_with("torch.")) return false;
  const std::size_t dot = callee.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  return last != "cuda" &&
         (last.find("cuda") != std::string_view::npos || last.find("cudnn") != std::string_view::npos);
}

/// `x.is_cuda`, `torch.backends.cudnn.enabled`, `torch.version.cuda`.
bool is_cuda_attribute(std::string_view attribute, std::string_view resolved) {
  return attribute == "is_cuda" || resolved == "torch.backends.cudnn.enabled" || resolved == "torch.version.cuda";
}

class CudaHardGate final : public Detector {
 public:
  std::string_view id() const override { return "cuda-hard-gate"; }
  std::vector<std::string_view> node_kinds() const override { return {"assert_statement", "if_statement"}; }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    if (ts_node_symbol(node) == k.assert_statement) {
      const TSNode condition = ts_node_named_child(node, 0);
      if (ts_node_symbol(condition) != k.not_operator && probes_cuda(condition, scope))
        scope.emit(id(), node, "assert " + std::string(scope.text(condition)).substr(0, 80));
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
    // `if <CUDA check>: ... else: raise`: only the CUDA side gets through. (After `if not <CUDA check>:` the else
    // side is the CUDA one; after `elif` clauses the else raises for whatever they tested: `if not cuda: print(...)
    // elif args.distributed: ... else: raise NotImplementedError("Only DDP")` runs on a CPU.)
    if (negated) return;
    const std::uint32_t count = ts_node_named_child_count(node);
    for (std::uint32_t i = 0; i < count; ++i) {
      const TSNode clause = ts_node_named_child(node, i);
      if (ts_node_symbol(clause) == k.elif_clause) return;
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
      const auto& k = scope.kinds();
      const TSSymbol symbol = ts_node_symbol(step.node);
      if (symbol == k.call) {
        const TSNode function = ts_node_child_by_field_id(step.node, k.f_function);
        const std::string callee = scope.resolve(function).dotted();
        // A function of the same file does not resolve to an import: judge it by its name as written.
        found = is_cuda_probe(callee) || is_cuda_named_check(callee.empty() ? scope.text(function) : callee);
      } else if (symbol == k.attribute) {
        const TSNode name = ts_node_child_by_field_id(step.node, k.f_attribute);
        found = !ts_node_is_null(name) && is_cuda_attribute(scope.text(name), scope.resolve(step.node).dotted());
      }
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
