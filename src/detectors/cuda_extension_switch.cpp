// cuda-extension-switch: a name bound to `CUDAExtension` (`extension = CUDAExtension`), the setup.py
// idiom that picks the CUDA build when CUDA or FORCE_CUDA is present. The detail says under which
// condition the CUDA build is chosen and what the default is (the earlier assignment or the else side).
#include <string>

#include "tr2audit/detectors/detector.hpp"

namespace tr2audit::detectors {
namespace {

constexpr std::string_view k_cuda_extension = "torch.utils.cpp_extension.CUDAExtension";

std::string short_name(const QualifiedName& name) {
  return name.empty() ? std::string() : std::string(name.last_segment());
}

std::string clipped(std::string_view text, std::size_t cap = 90) {
  std::string out(text.substr(0, cap));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text.size() > cap ? out + "..." : out;
}

class CudaExtensionSwitch final : public Detector {
 public:
  std::string_view id() const override { return "cuda-extension-switch"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment"}; }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSNode left = ts_node_child_by_field_id(node, k.f_left);
    TSNode right = ts_node_child_by_field_id(node, k.f_right);
    while (!ts_node_is_null(right) && ts_node_symbol(right) == k.parenthesized_expression)
      right = ts_node_named_child(right, 0);
    if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_symbol(left) != k.identifier) return;
    const std::string target(scope.text(left));
    if (ts_node_symbol(right) == k.conditional_expression) {
      on_conditional(node, right, target, scope);
      return;
    }
    if (scope.resolve(right).dotted() != k_cuda_extension) return;
    std::string detail = target + " = CUDAExtension";
    const auto& facts = scope.facts_so_far();
    const facts::Context& ctx = scope.context();
    if (ctx.branch >= 0) {
      const facts::BranchInfo& branch = facts.branches[static_cast<std::size_t>(ctx.branch)];
      const std::string_view condition =
          scope.source().substr(branch.at.start_byte, branch.at.end_byte - branch.at.start_byte);
      detail += (branch.else_side ? " unless `" : " when `") + clipped(condition) + "`";
      detail += "; the default is " + default_of(target, node, scope);
    } else {
      detail += ": an alias, every extension built through it is compiled with nvcc";
    }
    scope.emit(id(), node, std::move(detail));
  }

 private:
  /// The value the same name was given before, in the same function ("CppExtension, a C++ build").
  static std::string default_of(const std::string& target, TSNode node, const NodeScope& scope) {
    const auto& facts = scope.facts_so_far();
    const std::uint32_t line = ts_node_start_point(node).row + 1;
    for (auto it = facts.assigns.rbegin(); it != facts.assigns.rend(); ++it) {
      if (it->target_text != target || it->ctx.function != scope.context().function || it->at.line >= line) continue;
      const std::string value = short_name(it->value.resolved);
      if (value == "CppExtension") return "CppExtension (a C++ build without CUDA, which Trainium2 hosts get)";
      return "`" + (value.empty() ? it->value.value : value) + "`";
    }
    return "not set before this branch";
  }

  void on_conditional(TSNode node, TSNode expr, const std::string& target, NodeScope& scope) {
    const TSNode then_value = ts_node_named_child(expr, 0);
    const TSNode condition = ts_node_named_child(expr, 1);
    const TSNode else_value = ts_node_named_child(expr, 2);
    const bool cuda_then = scope.resolve(then_value).dotted() == k_cuda_extension;
    const bool cuda_else = scope.resolve(else_value).dotted() == k_cuda_extension;
    if (!cuda_then && !cuda_else) return;
    const TSNode other = cuda_then ? else_value : then_value;
    const std::string other_name = short_name(scope.resolve(other));
    std::string detail = target + " = CUDAExtension " + (cuda_then ? "when `" : "unless `") +
                         clipped(scope.text(condition)) + "`; otherwise " +
                         (other_name.empty() ? "`" + clipped(scope.text(other), 40) + "`" : other_name);
    scope.emit(id(), node, std::move(detail));
  }
};

}  // namespace

std::unique_ptr<Detector> make_CudaExtensionSwitch() {
  return std::make_unique<CudaExtensionSwitch>();
}

}  // namespace tr2audit::detectors
