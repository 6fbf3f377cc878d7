// Does any Python of the repo build or load compiled code? A repo whose .cu files no Python builds
// or loads (a separate C/CUDA implementation beside a PyTorch one, as in llm.c) keeps them apart
// from the training path.
#include <algorithm>
#include <array>
#include <string_view>

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

}  // namespace

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
