#include <algorithm>

#include "tr2audit/core/text.hpp"
#include "tr2audit/pipeline/scan.hpp"

namespace tr2audit::pipeline {
namespace {

bool is_python_kind(discover::FileKind kind) {
  return kind == discover::FileKind::python || kind == discover::FileKind::python_stub ||
         kind == discover::FileKind::notebook;
}

bool has_module(const std::vector<std::string>& modules, const std::string& name) {
  return std::binary_search(modules.begin(), modules.end(), name);
}

/// A module the repo defines, or a package prefix of one ("pkg" when "pkg.sub" exists).
bool is_local_package(const std::vector<std::string>& modules, const std::string& name) {
  if (name.empty()) return false;
  if (has_module(modules, name)) return true;
  const auto it = std::lower_bound(modules.begin(), modules.end(), name + ".");
  return it != modules.end() && starts_with(*it, name + ".");
}

/// A package (a folder of modules), as opposed to a plain module file that cannot have submodules.
bool is_package(const std::vector<std::string>& modules, const std::string& name) {
  const auto it = std::lower_bound(modules.begin(), modules.end(), name + ".");
  return it != modules.end() && starts_with(*it, name + ".");
}

// Names compiled extension modules are given: _C, fused_layer_norm_cuda, amp_C, my_ext, _kernels.
bool looks_like_extension(std::string_view name) {
  if (starts_with(name, "__")) return false;  // __version__, __all__
  return name == "_C" || ends_with(name, "_C") || name.find("cuda") != std::string_view::npos ||
         ends_with(name, "_ext") || ends_with(name, "_extension") || ends_with(name, "_kernels") ||
         ends_with(name, "_ops") || ends_with(name, "_cpp");
}

}  // namespace

std::vector<std::string> module_names_of(const std::vector<discover::SourceFile>& files) {
  std::vector<std::string> out;
  for (const auto& file : files) {
    if (file.kind == discover::FileKind::python || file.kind == discover::FileKind::python_stub)
      out.push_back(facts::module_name_for(file.rel_path));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void resolve_import_origins(facts::FileFacts& file, const std::vector<std::string>& modules) {
  for (auto& fact : file.imports) {
    const std::string& target = fact.target.dotted();
    const std::string& module = fact.module.dotted();
    const bool from_import = target != module;
    const std::string top(fact.module.first_segment());
    const bool local_root = fact.relative_level > 0 || is_local_package(modules, top);
    if (!local_root || fact.star) {
      fact.origin = facts::ImportOrigin::external;
    } else if (is_local_package(modules, target)) {
      fact.origin = facts::ImportOrigin::local_source;
    } else if (from_import && is_local_package(modules, module)) {
      // `from pkg import name`: an attribute of pkg, unless pkg is a package and the name reads like
      // a compiled extension module (`from . import _C`). A plain module file has no submodules.
      const bool extension = is_package(modules, module) && looks_like_extension(fact.target.last_segment());
      fact.origin = extension ? facts::ImportOrigin::local_missing : facts::ImportOrigin::local_source;
    } else {
      // Not shipped as source: a compiled extension when it is named like one; otherwise most likely a
      // namespace package provided by another distribution (optimum.* in optimum-neuron).
      const bool extension =
          looks_like_extension(fact.target.last_segment()) || looks_like_extension(fact.module.last_segment());
      fact.origin = extension ? facts::ImportOrigin::local_missing : facts::ImportOrigin::external;
    }
  }
}

FileAnalysis analyze_file(const discover::SourceFile& file, facts::Extractor& extractor, std::uint64_t max_file_size,
                          const std::vector<std::string>& module_names) {
  FileAnalysis analysis;
  discover::LoadResult loaded = discover::load_source(file, max_file_size);
  if (!loaded.ok) {
    analysis.facts.path = file.rel_path;
    analysis.facts.problems.push_back(std::move(loaded.problem));
    return analysis;
  }
  analysis.loaded = true;
  if (is_python_kind(file.kind)) {
    analysis.facts = extractor.extract(file, loaded.source);
    resolve_import_origins(analysis.facts, module_names);
  } else {
    analysis.facts.path = file.rel_path;
    analysis.facts.kind = file.kind;
    analysis.facts.is_test = file.is_test;
    analysis.facts.lines =
        static_cast<std::uint32_t>(std::count(loaded.source.text.begin(), loaded.source.text.end(), '\n'));
    if (file.kind != discover::FileKind::cuda_source)
      analysis.facts.dependencies = facts::extract_dependencies(file.kind, loaded.source.text);
  }
  analysis.text = std::move(loaded.source.text);
  return analysis;
}

}  // namespace tr2audit::pipeline
