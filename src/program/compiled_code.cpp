// Does any Python of the repo build or load compiled code? A repo whose .cu files no Python builds
// or loads (a separate C/CUDA implementation beside a PyTorch one, as in llm.c) keeps them apart
// from the training path.
#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "program/model.hpp"

namespace tr2audit::program {
namespace {

constexpr std::array<std::string_view, 6> k_loader_modules{
    "torch.utils.cpp_extension", "cupy", "pycuda", "numba.cuda", "cffi", "pybind11"};
constexpr std::array<std::string_view, 6> k_loader_calls{
    "torch.ops.load_library", "torch.classes.load_library", "ctypes.CDLL", "ctypes.cdll.LoadLibrary",
    "ctypes.PyDLL",           "setuptools.Extension"};

bool names_loader(const QualifiedName& name, auto const& list) {
  return std::any_of(list.begin(), list.end(), [&](std::string_view prefix) { return name.starts_with(prefix); });
}

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

void guard_fallback_sources(Program::Impl& impl) {
  struct Uses {
    int guarded = 0, unguarded = 0;
  };
  std::unordered_map<std::string, Uses> named;  // CUDA source base name -> the Python calls that name it
  const auto fallback = facts::guard_bit(facts::Guard::import_error_fallback);
  for (const facts::FileFacts& file : impl.files) {
    for (const facts::CallFact& call : file.calls) {
      std::vector<std::string> names;
      for (const facts::Argument& arg : call.args) facts::cuda_source_names(arg.value, names);
      for (const std::string& name : names) {
        if (name.empty()) continue;
        auto& uses = named[std::string(base_name(name))];
        ++((call.ctx.guards & fallback) ? uses.guarded : uses.unguarded);
      }
    }
  }
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const facts::FileFacts& file = impl.files[f];
    if (file.kind != discover::FileKind::cuda_source) continue;
    // `box_iou_rotated_cuda.cu` beside `box_iou_rotated_cpu.cpp`: a build without CUDA compiles the CPU
    // kernel instead, so the CUDA one runs only where CUDA is.
    if (!file.cpu_twin.empty()) {
      auto& module = impl.inherited_guards[f];
      const std::size_t slot = impl.slot(FunctionId{FileId{static_cast<std::uint32_t>(f)}, -1});
      if (slot < module.size()) module[slot] |= facts::guard_bit(facts::Guard::cuda_available);
    }
    const auto it = named.find(std::string(base_name(file.path)));
    if (it == named.end() || it->second.unguarded > 0 || it->second.guarded == 0) continue;
    auto& module = impl.inherited_guards[f];
    const std::size_t slot = impl.slot(FunctionId{FileId{static_cast<std::uint32_t>(f)}, -1});
    if (slot < module.size()) module[slot] |= fallback;
  }
}

bool find_compiled_code_loader(const Program::Impl& impl) {
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const facts::FileFacts& file = impl.files[f];
    const auto& origins = impl.symbols->origins()[f];
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      if (names_loader(file.imports[i].target, k_loader_modules) ||
          names_loader(file.imports[i].module, k_loader_modules))
        return true;
      if (i < origins.size() && origins[i] == facts::ImportOrigin::local_missing) return true;
    }
    for (const facts::CallFact& call : file.calls) {
      if (names_loader(call.callee, k_loader_calls)) return true;
    }
  }
  return false;
}

}  // namespace tr2audit::program
