// Calls of the repo's own NKI kernels. A function decorated as a Neuron kernel (`@nki.jit`,
// `@neuronxcc.nki.jit`, the deprecated `@torch_neuronx.nki_jit`, `@nki_op(...)`) runs on the
// NeuronCore; every call that names it (`flash_fwd(q, k, v)`, the legacy grid launch
// `flash_fwd[grid](...)`) from code that is not itself a kernel is an `nki-kernel-call` pattern
// (detail: the kernel's qualified name), so the rules can say where the model uses Neuron kernels.
#include <set>
#include <utility>

#include "program/model.hpp"

namespace tr2audit::program {
namespace {

bool is_nki_decorator(const QualifiedName& decorator) {
  const FactString& name = decorator.dotted();
  const std::string_view last = decorator.last_segment();
  if (last == "nki_jit" || last == "nki_op") return true;
  return name == "nki.jit" || name == "neuronxcc.nki.jit" || name.ends_with(".nki.jit");
}

}  // namespace

void find_nki_kernel_calls(Program::Impl& impl) {
  std::set<std::pair<std::uint32_t, std::int32_t>> kernels;  // (file, function)
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& functions = impl.files[f].functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      for (const auto& decorator : functions[i].decorators) {
        if (is_nki_decorator(decorator)) kernels.insert({f, static_cast<std::int32_t>(i)});
      }
    }
  }
  if (kernels.empty()) return;
  impl.derived.resize(impl.files.size());
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& facts = impl.files[f];
    const auto& per_slot = impl.edges[f];
    for (std::size_t s = 0; s < per_slot.size(); ++s) {
      const std::int32_t caller = s == facts.functions.size() ? -1 : static_cast<std::int32_t>(s);
      if (kernels.count({f, caller}) != 0) continue;  // a kernel calling a sub-kernel is kernel code
      std::set<std::int32_t> reported;
      for (const auto& edge : per_slot[s]) {
        if (!edge.by_name || edge.call < 0 || edge.target.index < 0) continue;
        if (kernels.count({edge.target.file.value, edge.target.index}) == 0 || !reported.insert(edge.call).second)
          continue;
        const auto& call = facts.calls[static_cast<std::size_t>(edge.call)];
        const auto& target = impl.files[edge.target.file.value];
        const FactString& qualname = target.functions[static_cast<std::size_t>(edge.target.index)].qualname;
        const std::string kernel = target.module_name.empty() ? qualname : target.module_name + "." + qualname;
        impl.derived[f].push_back(facts::PatternFact{"nki-kernel-call", FactString(kernel), call.at, call.ctx});
      }
    }
  }
}

}  // namespace tr2audit::program
