// program/lockin_seeds (private): where GPU-only code starts in one file of the repo: extension module
// names declared by the repo's builds, extension handles (imports, loaded modules, loader helpers) and
// the calls through them. src/program/lockin.cpp propagates the seeds over the call graph.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "program/model.hpp"

namespace tr2audit::program {

/// Extension modules the repo declares: `CUDAExtension("fused_dense_lib", ...)` / `CppExtension(...)`
/// by their full dotted module name (`fused_dense_lib`, `flash_attn_3._C`).
struct ExtensionNames {
  std::set<std::string> cuda;
  std::set<std::string> cpu;
  /// The `name` argument of an extension declaration: a string literal, or an f-string of the file's
  /// module constants (`f"{PACKAGE_NAME}._C"`); "" otherwise.
  static std::string declared_name(const facts::CallFact& call, const facts::FileFacts& file);
};

/// Per file, per function: 1 when the function loads a compiled CUDA extension (a helper whose value is a handle).
using Loaders = std::vector<std::vector<char>>;

/// True when a repo function is marked in `loaders`.
bool is_loader(const Loaders& loaders, FunctionId id);

/// Every CUDAExtension/CppExtension name declared anywhere in the scan (setup.py, build scripts).
ExtensionNames collect_extension_names(const std::vector<facts::FileFacts>& files);

/// Extension handles and extension calls of one file.
class SeedFinder {
 public:
  SeedFinder(const Program::Impl& impl, const ExtensionNames& names, FileId file);

  /// True when the call builds a CUDA extension or imports a compiled one by a computed name.
  bool loads_extension(const facts::CallFact& call) const;
  /// Names bound to a loaded extension: `ext = load(...)`, `self._C = importlib.import_module(...)`, `ext = helper()`.
  void collect_handles(const Loaders& loaders);
  /// The extension function a call runs ("flash_attn_2_cuda.fwd", "ext.op"), or "" when it is not one.
  std::string extension_call(const facts::CallFact& call, const Loaders& loaders) const;

 private:
  void collect_extension_modules();
  void add_handle(const facts::CallFact& call);

  const Program::Impl& m_impl;
  const ExtensionNames& m_names;
  FileId m_file;
  const facts::FileFacts& m_facts;
  std::vector<std::string> m_modules;  // dotted extension modules imported here ("flash_attn_2_cuda", "pkg._C")
  std::vector<std::string> m_handles;  // names holding a loaded extension ("ext", "self._ext")
};

}  // namespace tr2audit::program
