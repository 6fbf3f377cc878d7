#include "program/symbols.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>

#include "program/lockin_seeds.hpp"
#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr int k_max_reexport_hops = 8;

// Names compiled extension modules are given: _C, fused_layer_norm_cuda, amp_C, my_ext, _kernels.
bool looks_like_extension(std::string_view name) {
  if (starts_with(name, "__")) return false;  // __version__, __all__
  return name == "_C" || ends_with(name, "_C") || name.find("cuda") != std::string_view::npos ||
         ends_with(name, "_ext") || ends_with(name, "_extension") || ends_with(name, "_kernels") ||
         ends_with(name, "_ops") || ends_with(name, "_cpp");
}

// `from m import name` of `file`: the file calls `name(...)` and reads no attribute of it
// (Symbols::imports_callable). Asked only of the few imports a name makes look like an extension.
bool import_called(const facts::FileFacts& file, const facts::ImportFact& fact) {
  if (fact.star || fact.target.dotted() == fact.module.dotted()) return false;
  const std::string_view target = fact.target.dotted();
  const auto under = [&](std::string_view name) {
    return name.size() > target.size() && starts_with(name, target) && name[target.size()] == '.';
  };
  bool called = false;
  for (const auto& call : file.calls) {
    const std::string_view callee = call.callee.dotted();
    if (callee == target) called = true;
    if (under(callee)) return false;
  }
  if (!called) return false;
  return std::none_of(file.references.begin(), file.references.end(),
                      [&](const facts::ReferenceFact& ref) { return under(ref.name.dotted()); });
}

std::string_view parent_of(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : dotted.substr(0, dot);
}

/// "prefix.name" in buffer when it fits, else in spill: a lookup key built without allocating.
std::string_view joined(std::string_view prefix, std::string_view name, std::span<char> buffer, std::string& spill) {
  const std::size_t size = prefix.size() + 1 + name.size();
  if (size > buffer.size()) {
    spill.assign(prefix);
    spill += '.';
    spill += name;
    return spill;
  }
  std::memcpy(buffer.data(), prefix.data(), prefix.size());
  buffer[prefix.size()] = '.';
  std::memcpy(buffer.data() + prefix.size() + 1, name.data(), name.size());
  return std::string_view(buffer.data(), size);
}

}  // namespace

Symbols::Symbols(const std::vector<facts::FileFacts>& files)
    : m_files(files), m_cuda_extensions(collect_extension_names(files).cuda) {
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    if (files[i].module_name.empty()) continue;
    const std::string_view name = files[i].module_name;
    m_modules.push_back(name);
    m_module_file.emplace(name, FileId{i});
    m_roots.emplace(name.substr(0, name.find('.')));
  }
  std::sort(m_modules.begin(), m_modules.end());
  m_modules.erase(std::unique(m_modules.begin(), m_modules.end()), m_modules.end());
  index_folders();
  find_project_packages();
  m_origins.resize(files.size());
  m_shadowed.reserve(files.size());
  for (const auto& file : files) m_shadowed.push_back(shadowed_definitions(file));
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    resolve_origins(FileId{i});
    index_file(FileId{i});
  }
  m_bases.resize(files.size());
  for (std::uint32_t f = 0; f < files.size(); ++f) {
    const auto& classes = files[f].classes;
    m_bases[f].resize(classes.size());
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(classes.size()); ++c) {
      auto& bases = m_bases[f][static_cast<std::size_t>(c)];
      for (std::size_t b = 0; b < classes[static_cast<std::size_t>(c)].bases.size(); ++b)
        bases.push_back(resolve_base(ClassId{FileId{f}, c}, b));
    }
  }
  m_keys.seal();
}

void Symbols::index_folders() {
  for (const std::string_view name : m_modules) {
    // Every folder above the module holds the next segment: "a.b.c" puts "c" in "a.b" and "b" in "a".
    for (std::string_view child = name; child.find('.') != std::string_view::npos; child = parent_of(child)) {
      const std::string_view folder = parent_of(child);
      m_folder_children[folder].push_back(child.substr(folder.size() + 1));
    }
  }
  for (auto& [folder, children] : m_folder_children) {
    std::sort(children.begin(), children.end());
    children.erase(std::unique(children.begin(), children.end()), children.end());
  }
  // A module inside a package (a folder with __init__.py) imports absolutely: `import deepspeed` in
  // openrlhf/utils/deepspeed/deepspeed.py is the library. Only a folder of scripts is their sys.path[0],
  // and so is a package's folder for a script in it run by its path: examples/doremi/train_doremi.py
  // (beside examples/doremi/__init__.py) imports `doremi.trainer` from examples/doremi/doremi/. A
  // script with a relative import runs as `python -m`, from the working directory.
  std::unordered_set<std::string_view> packages;
  for (const auto& file : m_files) {
    if (file.is_package_init) packages.insert(file.module_name.view());
  }
  const auto run_by_path = [](const facts::FileFacts& file) {
    return runs_as_program(file) && std::none_of(file.imports.begin(), file.imports.end(),
                                                 [](const auto& import) { return import.relative_level > 0; });
  };
  m_file_folder.assign(m_files.size(), nullptr);
  for (std::size_t i = 0; i < m_files.size(); ++i) {
    const std::string_view folder = parent_of(m_files[i].module_name);
    if (folder.empty() || m_files[i].is_package_init || (packages.contains(folder) && !run_by_path(m_files[i])))
      continue;
    const auto it = m_folder_children.find(folder);
    if (it != m_folder_children.end()) m_file_folder[i] = &*it;
  }
}

std::string_view Symbols::beside(FileId from, std::string_view dotted, std::string& buffer) const {
  if (from.value >= m_file_folder.size() || m_file_folder[from.value] == nullptr || dotted.empty()) return dotted;
  const auto& [folder, children] = *m_file_folder[from.value];
  const std::string_view first = dotted.substr(0, dotted.find('.'));
  if (!std::binary_search(children.begin(), children.end(), first)) return dotted;
  const std::string_view own = m_files[from.value].module_name;
  if (own.size() == folder.size() + 1 + first.size() && ends_with(own, first)) return dotted;  // itself
  buffer.assign(folder);
  buffer += '.';
  buffer += dotted;
  return buffer;
}

Symbol Symbols::lookup_from(FileId from, std::string_view dotted) const {
  std::string buffer;
  const std::string_view near = beside(from, dotted, buffer);
  if (near.data() != dotted.data()) {
    const Symbol s = lookup(near);
    if (s.kind != Symbol::Kind::none) return s;
  }
  return lookup(dotted);
}

std::optional<FileId> Symbols::module_from(FileId from, std::string_view dotted) const {
  std::string buffer;
  const std::string_view near = beside(from, dotted, buffer);
  if (near.data() != dotted.data()) {
    if (auto file = module(near)) return file;
  }
  return module(dotted);
}

bool Symbols::is_package(std::string_view dotted) const {
  std::string canonical_buffer;
  dotted = canonical(dotted, canonical_buffer);
  const std::string prefix = std::string(dotted) + ".";
  const auto it = std::lower_bound(m_modules.begin(), m_modules.end(), std::string_view(prefix));
  return it != m_modules.end() && starts_with(*it, prefix);
}

bool Symbols::imports_callable(FileId file, std::size_t import_index) const {
  const auto& facts = m_files[file.value];
  return import_index < facts.imports.size() && import_called(facts, facts.imports[import_index]);
}

std::optional<FileId> Symbols::module(std::string_view dotted) const {
  std::string canonical_buffer;
  const auto it = m_module_file.find(canonical(dotted, canonical_buffer));
  if (it == m_module_file.end()) return std::nullopt;
  return it->second;
}

bool Symbols::is_local_root(std::string_view top) const {
  return m_roots.find(top) != m_roots.end();  // a module named `top`, or a package `top.` above some
}

void Symbols::resolve_origins(FileId id) {
  const auto& file = m_files[id.value];
  auto& out = m_origins[id.value];
  out.reserve(file.imports.size());
  for (const auto& fact : file.imports) {
    // (beside() leaves relative imports alone: they exist only in packages, which it does not touch.)
    std::string target_buffer;
    std::string module_buffer;
    const std::string_view target = beside(id, fact.target.dotted(), target_buffer);
    const std::string_view mod = beside(id, fact.module.dotted(), module_buffer);
    const bool from_import = fact.target.dotted() != fact.module.dotted();
    const bool local_root =
        fact.relative_level > 0 || is_local_root(fact.module.first_segment()) || mod.data() == module_buffer.data();
    const auto local = [&](std::string_view name) { return module(name) || is_package(name); };
    ImportOrigin origin = ImportOrigin::external;
    if (declared_cuda_extension(fact) && !local(target)) {
      // `import fused_dense_lib` where csrc/fused_dense_lib/setup.py declares CUDAExtension("fused_dense_lib"):
      // the repo's own build product, whatever folder the build lives in.
      origin = ImportOrigin::local_missing;
    } else if (!local_root || fact.star) {
      origin = ImportOrigin::external;
    } else if (local(target)) {
      origin = ImportOrigin::local_source;
    } else if (from_import && local(mod)) {
      // `from pkg import name`: an attribute of pkg, unless pkg is a package and the name reads like a
      // compiled extension module (`from . import _C`). A plain module file has no submodules.
      const std::string_view name = fact.target.last_segment();
      const bool extension = is_package(mod) && looks_like_extension(name) && !package_may_define(mod, name);
      origin = extension ? ImportOrigin::local_missing : ImportOrigin::local_source;
    } else {
      // Not shipped as source: a compiled extension when it is named like one; otherwise most likely a
      // namespace package provided by another distribution (optimum.* in optimum-neuron). A name the file
      // calls is no module (`from .cuda_setup.main import evaluate_cuda_setup`): only its module's name counts.
      const bool extension = (looks_like_extension(fact.target.last_segment()) && !import_called(file, fact)) ||
                             looks_like_extension(fact.module.last_segment());
      origin = extension ? ImportOrigin::local_missing : ImportOrigin::external;
    }
    out.push_back(origin);
  }
}

bool Symbols::declared_cuda_extension(const facts::ImportFact& fact) const {
  if (fact.relative_level != 0 || m_cuda_extensions.empty()) return false;
  for (const QualifiedName* name : {&fact.target, &fact.module}) {
    for (std::string_view dotted = name->dotted(); !dotted.empty(); dotted = parent_of(dotted)) {
      if (m_cuda_extensions.count(std::string(dotted)) != 0) return true;
    }
  }
  return false;
}

bool Symbols::package_may_define(std::string_view package, std::string_view name) const {
  const auto init = module(package);
  if (!init) return false;
  const auto& file = m_files[init->value];
  // `from .img_extensions import *` in the __init__ may bind any name: not known to be missing.
  for (const auto& fact : file.imports) {
    if (fact.ctx.function >= 0) continue;
    // `from . import _C` binds the name by importing the very submodule in question: no evidence.
    const FactString& target = fact.target.dotted();
    const bool same_submodule =
        target.size() == package.size() + 1 + name.size() && starts_with(target, package) && ends_with(target, name);
    if (fact.star || (fact.bound_name == name && !same_submodule)) return true;
  }
  for (const auto& fn : file.functions) {
    if (fn.parent < 0 && fn.klass < 0 && fn.name == name) return true;
  }
  for (const auto& klass : file.classes) {
    if (klass.qualname == name) return true;
  }
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function < 0 && assign.target_text == name) return true;
  }
  return false;
}

void Symbols::index_file(FileId id) {
  const auto& file = m_files[id.value];
  if (file.module_name.empty()) return;
  const std::string prefix = file.module_name + ".";
  const auto key = [&](std::string_view name) { return m_keys.intern(prefix + std::string(name)).view(); };
  // beside() for a table that outlives the call: a name it rewrote is kept in m_keys.
  const auto lasting_beside = [&](std::string_view dotted) {
    std::string buffer;
    const std::string_view near = beside(id, dotted, buffer);
    return near.data() == buffer.data() ? m_keys.intern(near).view() : near;
  };
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
    const auto& fn = file.functions[static_cast<std::size_t>(i)];
    if (m_shadowed[id.value][static_cast<std::size_t>(i)]) continue;  // the later definition is the symbol
    if (fn.parent < 0 && fn.klass < 0) {
      Symbol s;
      s.kind = Symbol::Kind::function;
      s.function = FunctionId{id, i};
      m_top.emplace(key(fn.name), s);
    }
    if (fn.klass >= 0 && fn.parent < 0) {
      m_methods.emplace(MethodKey{id.value, fn.klass, fn.name}, i);
      auto& owners = m_methods_by_name[fn.name.view()];
      if (owners.size() <= k_max_name_candidates) owners.push_back(FunctionId{id, i});
      // (A torch class's protocol method, `backward` of an `autograd.Function`, is no method of the repo's own.)
      const auto& bases = file.classes[static_cast<std::size_t>(fn.klass)].bases;
      if (std::none_of(bases.begin(), bases.end(), [](const QualifiedName& b) {
            return b.first_segment() == "torch" || b.first_segment() == "nn";
          }))
        m_plain_methods.insert(fn.name.view());
    }
  }
  for (std::int32_t c = 0; c < static_cast<std::int32_t>(file.classes.size()); ++c) {
    const auto& klass = file.classes[static_cast<std::size_t>(c)];
    if (klass.parent_function >= 0 || klass.qualname.find('.') != std::string::npos) continue;
    Symbol s;
    s.kind = Symbol::Kind::klass;
    s.klass = ClassId{id, c};
    m_top.emplace(key(klass.name), s);
  }
  // Module-level imports of repo names re-export them: `from .x import f` makes `pkg.f` denote `pkg.x.f`.
  for (std::size_t i = 0; i < file.imports.size(); ++i) {
    const auto& fact = file.imports[i];
    if (fact.ctx.function >= 0 || fact.ctx.klass >= 0 || m_origins[id.value][i] != ImportOrigin::local_source) continue;
    if (fact.star) continue;
    if (fact.bound_name.empty()) continue;  // `import a.b` binds `a`, not a re-export
    m_reexport.emplace(key(fact.bound_name), lasting_beside(fact.target.dotted()));
  }
  for (const auto& fact : file.imports) {
    if (!fact.star || fact.ctx.function >= 0) continue;
    m_star_sources[file.module_name.view()].push_back(lasting_beside(fact.module.dotted()));
  }
  // Module-level aliases re-export what they name: `apply_rotary = ApplyRotary.apply`, `norm = fused_norm`,
  // `attn = ops.flash_fwd` (a name bound once at module level to a dotted name of the repo).
  std::unordered_map<std::string_view, int> bound;
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function < 0 && assign.ctx.klass < 0) ++bound[assign.target_text.view()];
  }
  for (const auto& assign : file.assigns) {
    const std::string_view target = assign.target_text.view();
    if (assign.ctx.function >= 0 || assign.ctx.klass >= 0 || assign.value.kind != facts::LiteralKind::name ||
        bound[target] != 1 || !is_identifier(target))
      continue;
    if (!assign.value.resolved.empty()) {  // through an import: `fused = ext_ops.fused_norm`
      m_reexport.emplace(key(target), lasting_beside(assign.value.resolved.dotted()));
      continue;
    }
    const std::string_view text = assign.value.value.view();
    const std::string_view head = text.substr(0, text.find('.'));
    if (head != target && m_top.count(prefix + std::string(head)) != 0) m_reexport.emplace(key(target), key(text));
  }
}

std::string_view Symbols::library_name(std::string_view dotted) const {
  for (int hop = 0; hop <= k_max_reexport_hops && !dotted.empty(); ++hop) {
    if (!is_local_root(dotted.substr(0, dotted.find('.')))) return hop == 0 ? std::string_view() : dotted;
    std::string canonical_buffer;
    const std::string_view name = canonical(dotted, canonical_buffer);
    if (m_top.count(name) != 0) return {};  // the repo's own definition
    // An unconditional module-level import of a library name in the module named by the parent re-exports it
    // (read from that file's imports on demand: a table of every library import would cost megabytes).
    const std::string_view parent = parent_of(name);
    if (const auto file = parent.empty() ? std::nullopt : module(parent)) {
      const auto& facts = m_files[file->value];
      const std::string_view last = name.substr(parent.size() + 1);
      for (std::size_t i = 0; i < facts.imports.size() && !facts.is_test; ++i) {
        const auto& fact = facts.imports[i];
        if (fact.bound_name == last && fact.ctx.function < 0 && fact.ctx.klass < 0 && !fact.star &&
            fact.ctx.guards == 0 && fact.ctx.branch < 0 && m_origins[file->value][i] == ImportOrigin::external)
          return fact.target.dotted().view();
      }
    }
    auto it = m_reexport.find(name);
    if (it == m_reexport.end() || it->second == name) return {};
    dotted = it->second;  // a repo re-export, or a module-level alias of a library name
  }
  return {};
}

bool Symbols::is_autograd_function(ClassId klass) const {
  const auto& info = m_files[klass.file.value].classes[static_cast<std::size_t>(klass.index)];
  return std::any_of(info.bases.begin(), info.bases.end(), [](const QualifiedName& base) {
    return base.dotted() == "torch.autograd.Function" || base.dotted() == "torch.autograd.function.Function";
  });
}

Symbol Symbols::lookup(std::string_view dotted) const {
  return lookup_bounded(dotted, 0);
}

Symbol Symbols::lookup_bounded(std::string_view dotted, int depth) const {
  if (depth > k_max_reexport_hops || dotted.empty()) return {};
  if (!is_local_root(dotted.substr(0, dotted.find('.')))) return {};  // torch.*, numpy.*: not the repo's
  std::string canonical_buffer;
  dotted = canonical(dotted, canonical_buffer);
  if (auto it = m_top.find(dotted); it != m_top.end()) return it->second;
  if (auto it = m_reexport.find(dotted); it != m_reexport.end() && it->second != dotted)
    return lookup_bounded(it->second, depth + 1);
  if (auto file = module(dotted)) {
    Symbol s;
    s.kind = Symbol::Kind::module;
    s.module = *file;
    return s;
  }
  const std::string_view parent = parent_of(dotted);
  const std::string_view name = dotted.substr(parent.empty() ? 0 : parent.size() + 1);
  if (auto it = m_star_sources.find(parent); it != m_star_sources.end()) {
    for (const std::string_view source : it->second) {
      const Symbol s = lookup_bounded(std::string(source) + "." + std::string(name), depth + 1);
      if (s.kind != Symbol::Kind::none) return s;
    }
  }
  // `pkg.mod.Class.method` -> the method of a repo class.
  if (!parent.empty()) {
    const Symbol owner = lookup_bounded(parent, depth + 1);
    if (owner.kind == Symbol::Kind::klass) {
      if (auto m = known_method(owner.klass, name)) {
        Symbol s;
        s.kind = Symbol::Kind::function;
        s.function = *m;
        return s;
      }
      // `Fn.apply` of a torch.autograd.Function runs its forward (and, in training, its backward).
      if (name == "apply" && is_autograd_function(owner.klass)) {
        if (auto forward = known_method(owner.klass, "forward")) {
          Symbol s;
          s.kind = Symbol::Kind::function;
          s.function = *forward;
          s.klass = owner.klass;
          s.autograd_apply = true;
          return s;
        }
      }
    }
  }
  return {};
}

Symbol Symbols::lookup_in_file(FileId file, std::string_view name) const {
  const auto& facts = m_files[file.value];
  if (facts.module_name.empty()) {  // a notebook or a file outside any module: its own top level only
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(facts.functions.size()); ++i) {
      const auto& fn = facts.functions[static_cast<std::size_t>(i)];
      if (fn.parent < 0 && fn.klass < 0 && fn.name == name && !m_shadowed[file.value][static_cast<std::size_t>(i)]) {
        Symbol s;
        s.kind = Symbol::Kind::function;
        s.function = FunctionId{file, i};
        return s;
      }
    }
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(facts.classes.size()); ++c) {
      if (facts.classes[static_cast<std::size_t>(c)].qualname == name) {
        Symbol s;
        s.kind = Symbol::Kind::klass;
        s.klass = ClassId{file, c};
        return s;
      }
    }
    return {};
  }
  std::array<char, 256> buffer;
  std::string spill;
  return lookup(joined(facts.module_name, name, buffer, spill));
}

std::optional<ClassId> Symbols::base_class(ClassId klass, std::size_t base_index) const {
  const std::size_t c = static_cast<std::size_t>(klass.index);
  if (klass.file.value < m_bases.size() && c < m_bases[klass.file.value].size() &&
      base_index < m_bases[klass.file.value][c].size())
    return m_bases[klass.file.value][c][base_index];
  return resolve_base(klass, base_index);  // while the constructor fills the table (or no such base)
}

std::optional<ClassId> Symbols::resolve_base(ClassId klass, std::size_t base_index) const {
  const auto& info = m_files[klass.file.value].classes[static_cast<std::size_t>(klass.index)];
  if (base_index >= info.bases.size()) return std::nullopt;
  const std::string& text = info.base_texts[base_index];
  Symbol s = lookup_in_file(klass.file, text);
  if (s.kind != Symbol::Kind::klass) s = lookup_from(klass.file, info.bases[base_index].dotted());
  if (s.kind != Symbol::Kind::klass) return std::nullopt;
  return s.klass;
}

std::optional<FunctionId> Symbols::method(ClassId klass, std::string_view name) const {
  return method_in_bases(klass, name, true);
}

std::optional<FunctionId> Symbols::known_method(ClassId klass, std::string_view name) const {
  return method_in_bases(klass, name, false);
}

std::optional<FunctionId> Symbols::method_in_bases(ClassId klass, std::string_view name, bool resolve) const {
  // Breadth-first over the class and its repo bases, visiting at most k_max_visits classes: only the
  // first k_max_visits ever queued can be visited, so no more are kept.
  constexpr std::size_t k_max_visits = 16;
  std::array<ClassId, k_max_visits> queue;
  std::size_t queued = 0;
  queue[queued++] = klass;
  for (std::size_t visited = 0; visited < queued; ++visited) {
    const ClassId next = queue[visited];
    const auto it = m_methods.find(MethodKey{next.file.value, next.index, name});
    if (it != m_methods.end()) return FunctionId{next.file, it->second};
    const auto& info = m_files[next.file.value].classes[static_cast<std::size_t>(next.index)];
    const std::size_t c = static_cast<std::size_t>(next.index);
    const bool known = next.file.value < m_bases.size() && c < m_bases[next.file.value].size() &&
                       m_bases[next.file.value][c].size() == info.bases.size();
    if (!resolve && !known) continue;
    for (std::size_t b = 0; b < info.bases.size() && queued < k_max_visits; ++b) {
      if (auto base = base_class(next, b)) queue[queued++] = *base;
    }
  }
  return std::nullopt;
}

std::optional<FunctionId> Symbols::unique_method(std::string_view name) const {
  const auto it = m_methods_by_name.find(name);
  if (it == m_methods_by_name.end() || it->second.size() != 1) return std::nullopt;
  return it->second.front();
}

std::vector<FunctionId> Symbols::methods_named(std::string_view name) const {
  const auto it = m_methods_by_name.find(name);
  if (it == m_methods_by_name.end() || it->second.size() > k_max_name_candidates) return {};
  return it->second;
}

bool Symbols::shadowed(FunctionId fn) const {
  if (fn.index < 0 || fn.file.value >= m_shadowed.size()) return false;
  const auto& file = m_shadowed[fn.file.value];
  return static_cast<std::size_t>(fn.index) < file.size() && file[static_cast<std::size_t>(fn.index)];
}

namespace {

/// Code of a scope (the module body, or a class body) that names `name` between two byte offsets: a
/// call, argument, assignment, decorator or base class there may use the earlier definition.
bool scope_names_between(const facts::FileFacts& file, std::int32_t klass, std::string_view name, std::uint32_t from,
                         std::uint32_t to) {
  const auto in_scope = [&](const facts::Context& ctx, const Span& at) {
    return ctx.function < 0 && ctx.klass == klass && at.start_byte >= from && at.start_byte < to;
  };
  const auto names = [&](std::string_view text) {
    return text == name || (starts_with(text, name) && text.size() > name.size() &&
                            (text[name.size()] == '.' || text[name.size()] == '[' || text[name.size()] == '('));
  };
  for (const auto& call : file.calls) {
    if (!in_scope(call.ctx, call.at)) continue;
    if (names(call.callee_text)) return true;
    for (const auto& arg : call.args) {
      if (names(arg.value)) return true;
    }
  }
  for (const auto& assign : file.assigns) {
    if (in_scope(assign.ctx, assign.at) && names(assign.value.value)) return true;
  }
  for (const auto& decorator : file.decorators) {
    if (in_scope(decorator.ctx, decorator.at) && names(decorator.text)) return true;
  }
  for (const auto& c : file.classes) {
    if (c.at.start_byte < from || c.at.start_byte >= to) continue;
    for (const auto& base : c.base_texts) {
      if (names(base)) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<bool> shadowed_definitions(const facts::FileFacts& file) {
  const std::size_t count = file.functions.size();
  std::vector<bool> out(count, false);
  // The next definition of each (class, name) in source order, walking backwards.
  std::map<std::pair<std::int32_t, std::string_view>, std::size_t> later;
  for (std::size_t i = count; i-- > 0;) {
    const auto& fn = file.functions[i];
    if (fn.parent >= 0 || fn.conditional) continue;
    const auto key = std::make_pair(fn.klass, std::string_view(fn.name));
    const auto it = later.find(key);
    if (it != later.end()) {
      const auto& next = file.functions[it->second];
      const bool names_earlier = std::any_of(next.decorators.begin(), next.decorators.end(),
                                             [&](const QualifiedName& d) { return d.first_segment() == fn.name; });
      if (!names_earlier && !scope_names_between(file, fn.klass, fn.name, fn.at.end_byte, next.at.start_byte))
        out[i] = true;
    }
    later[key] = i;
  }
  // Functions nested in a shadowed one (closures, local helpers) are dead with it.
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t parent = file.functions[i].parent;
    if (parent >= 0 && out[static_cast<std::size_t>(parent)]) out[i] = true;
  }
  return out;
}

}  // namespace tr2audit::program
