// Dead patch modules (called by program/variants, which has the repo's name strings): a module that patches
// a library, beside a training script, that nothing imports, names or reaches. Its patch is never applied.
// Test-only modules: a module of the repo that only tests import (a decode-step kernel kept for its test).
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// A module whose top level does work: a script with no `__main__` block (`python allreduce.py`, a
// `setup.py`), or a module that registers or patches something when imported (which a loader may import by
// a name no code spells). Only definitions, imports (optional ones in try/except) and a logger may remain.
bool works_at_top_level(const facts::FileFacts& file) {
  const std::string_view path = file.path;
  if (path == "setup.py" || ends_with(path, "/setup.py")) return true;
  const auto quiet = [](const facts::CallFact& call) {
    const std::string_view name = call.method.empty() ? call.callee_text.view() : call.method.view();
    // (`raise SystemExit("needs Python 3.8")` under a version check builds an error; `if is_torch_fx_available():`
    // probes a library: neither registers nor patches anything.)
    return call.ctx.has(facts::Guard::import_error_fallback) || call.ctx.has(facts::Guard::except_handler) ||
           call.ctx.has(facts::Guard::type_checking) || call.ctx.has(facts::Guard::error_message) ||
           name == "getLogger" || name == "get_logger" || name == "logging.getLogger" || name == "TypeVar" ||
           name == "namedtuple" || (starts_with(name, "is_") && ends_with(name, "_available"));
  };
  return std::any_of(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& call) {
    return call.ctx.function < 0 && call.ctx.klass < 0 && !quiet(call);
  });
}

// Code outside tests runs something of file `f`: a role other than test, or a training run reaches it. (A library's
// default role for its own forward or step counts: `flash_attn/models/bert.py`, which only the repo's tests import,
// is API its users build.)
bool reached_outside_tests(const Program::Impl& impl, std::uint32_t f) {
  for (const FunctionState& state : impl.state[f]) {
    RoleSet roles = state.roles;
    roles.reset(static_cast<std::size_t>(Role::test));
    if (roles.any() || state.training_reached) return true;
  }
  return false;
}

bool has_entry(const Program::Impl& impl, std::uint32_t f) {
  // (A method entry, `@torch.inference_mode def chat(self, ...)` of a model class, runs when something builds the
  // class, which needs the module imported or named: it starts nothing by itself.)
  return std::any_of(impl.entries.begin(), impl.entries.end(), [&](const EntryPoint& e) {
    return e.function.file.value == f &&
           (e.function.index < 0 || impl.files[f].functions[static_cast<std::size_t>(e.function.index)].klass < 0);
  });
}

// A string of the repo names the module (`"pkg.mod"`, `"pkg.mod.fn"`), or, with `or_stem`, its last segment.
bool named_by_string(const std::unordered_set<std::string>& strings, std::string_view module, bool or_stem) {
  return std::any_of(strings.begin(), strings.end(), [&](const std::string& s) {
    return s == module || (s.size() > module.size() && starts_with(s, module) && s[module.size()] == '.') ||
           (or_stem && s == module.substr(module.rfind('.') + 1));
  });
}

}  // namespace

// `llava/train/deepspeed_replace/runtime/zero/mics.py` importing `deepspeed.runtime.zero.parameter_offload`: a file
// laid out like the library's own (its two parent folders are consecutive segments of another package's module it
// imports), which a setup script copies over the installed library's file; it runs as part of that library, not through
// repo imports.
bool mirrors_library(const facts::FileFacts& file) {
  const std::string_view path = file.path.view();
  const std::size_t last = path.rfind('/');
  if (last == std::string_view::npos) return false;
  const std::size_t mid = path.rfind('/', last - 1);
  if (mid == std::string_view::npos || mid == 0) return false;
  const std::size_t first = path.rfind('/', mid - 1);
  const std::string_view outer = path.substr(first == std::string_view::npos ? 0 : first + 1,
                                             mid - (first == std::string_view::npos ? 0 : first + 1));
  const std::string_view inner = path.substr(mid + 1, last - mid - 1);
  const std::string pair = "." + std::string(outer) + "." + std::string(inner) + ".";
  // (Not an import that names the file's own folders under another root, `from annotator.uniformer.mmseg.apis
  // import ...` in `lavis/common/annotator/uniformer/__init__.py`: a vendored project's imports of itself.)
  const std::string own_folders = "/" + std::string(path.substr(0, last + 1));
  return std::any_of(file.imports.begin(), file.imports.end(), [&](const facts::ImportFact& fact) {
    if (fact.relative_level != 0) return false;
    const std::string dotted = "." + std::string(fact.module.dotted()) + ".";
    const std::string_view own = file.module_name.view().substr(0, file.module_name.view().find('.'));
    return fact.module.first_segment() != own && dotted.find(pair) != std::string::npos &&
           own_folders.find("/" + std::string(fact.module.first_segment()) + "/") == std::string::npos;
  });
}

std::string_view top_folder(std::string_view path) {
  std::size_t end = path.find('/');
  if (end == std::string_view::npos) return {};
  if (path.substr(0, end) == "src") {
    const std::size_t next = path.find('/', end + 1);
    if (next != std::string_view::npos) end = next;
  }
  return path.substr(0, end + 1);
}

std::unordered_set<std::string_view> training_root_folders(const Program::Impl& impl) {
  std::unordered_set<std::string_view> roots;
  for (const EntryPoint& e : impl.entries) {
    if (training_roles().test(static_cast<std::size_t>(e.role)) && !impl.files[e.function.file.value].is_test)
      roots.insert(top_folder(impl.files[e.function.file.value].path));
  }
  return roots;
}

// The literal module prefixes of the repo's imports by computed name: "fairseq.models." for
// `importlib.import_module("fairseq.models." + name)` or `import_module(f"fairseq.models.{name}")`; "" for one
// whose name is all computed (`import_module(package)`, a name the repo's strings then spell).
std::vector<std::string> computed_import_prefixes(const Program::Impl& impl) {
  std::vector<std::string> out;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      if (!computed_import_call(call)) continue;
      std::string_view text = call.args[0].value.view();
      if (!text.empty() && (text.front() == 'f' || text.front() == 'F')) text.remove_prefix(1);
      std::string prefix;
      if (!text.empty() && (text.front() == '"' || text.front() == '\'')) {
        const char quote = text.front();
        for (std::size_t i = 1; i < text.size() && text[i] != quote && text[i] != '{'; ++i) prefix += text[i];
      }
      out.push_back(std::move(prefix));
    }
  }
  return out;
}

// A patch module beside a training script (LLaVA's `llava/train/llama_flash_attn_monkey_patch.py`, replaced
// by `attn_implementation="flash_attention_2"`) that no repo file imports, no string or config names and no
// call reaches: its patch is never applied, and its imports and kernels never run. Scripts, package `__init__`s,
// tests and modules of folders without a training script (a library's public modules) are never candidates.
void mark_dead_patch_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings) {
  impl.dead_module.assign(impl.files.size(), DeadCode::live);
  std::unordered_set<std::string_view> training_folders;
  for (const EntryPoint& entry : impl.entries) {
    const auto& file = impl.files[entry.function.file.value];
    if (file.is_test || !training_roles().test(static_cast<std::size_t>(entry.role))) continue;
    const std::string_view path = file.path;
    training_folders.insert(path.substr(0, path.rfind('/') + 1));
  }
  if (training_folders.empty()) return;
  std::unordered_set<std::string_view> star_targets;
  for (const auto& file : impl.files) {
    for (const auto& fact : file.imports) {
      if (fact.star && !file.is_test) star_targets.insert(fact.module.dotted().view());
    }
  }
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || file.kind != discover::FileKind::python || file.is_package_init || runs_as_program(file) ||
        works_at_top_level(file))
      continue;
    const std::string_view path = file.path;
    if (!training_folders.count(path.substr(0, path.rfind('/') + 1))) continue;
    const std::string_view module = file.module_name.view();
    if (!impl.imported_by[f].empty() || star_targets.count(module) || reached_outside_tests(impl, f)) continue;
    // Only a patch module: what it exists for, replacing a library's code, is then known not to happen.
    // (A module of plain helpers may be a library's API that its users import.)
    if (std::none_of(file.assigns.begin(), file.assigns.end(),
                     [](const facts::AssignFact& a) { return a.target_is_import; }))
      continue;
    if (named_by_string(strings, module, true) || has_entry(impl, f)) continue;
    impl.dead_module[f] = DeadCode::unimported_module;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::unimported_module;
    }
  }
}

// A module that tests import and nothing else imports (lazily or not), names in a string or reaches
// (mamba's `mamba3_siso_step.py`, imported only by `tests/ops/triton/test_mamba3_siso.py`): its code runs
// only in those tests. Only in a folder whose other modules the repo's code does import (or in a sub-package
// of one whose `__init__` imports nothing): a folder only tests use (`lib/kernels.py` and its test) may be a
// library's public API, and a module no test imports stays live.
void mark_test_only_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings) {
  std::vector<char> by_tests(impl.files.size(), 0), by_code(impl.files.size(), 0);
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      const auto target = import_target(impl, FileId{f}, i);
      if (!target) continue;
      (file.is_test ? by_tests : by_code)[target->value] = 1;
      if (file.imports[i].star && !file.is_test) by_code[target->value] = 1;
    }
  }
  std::unordered_set<std::string_view> used_folders;  // folders holding a module the repo's code imports
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const std::string_view path = impl.files[f].path;
    if (by_code[f]) used_folders.insert(path.substr(0, path.rfind('/') + 1));
  }
  // A sub-package of a used folder whose `__init__` imports nothing (verl's `utils/rendezvous/`, holding only the
  // module its test imports) exports no API of its own: its modules count as the used folder's.
  std::unordered_set<std::string_view> bare_packages;
  for (const auto& file : impl.files) {
    if (!file.is_package_init || !file.imports.empty()) continue;
    const std::string_view path = file.path;
    bare_packages.insert(path.substr(0, path.rfind('/') + 1));
  }
  const auto used_folder = [&](std::string_view folder) {
    if (used_folders.count(folder)) return true;
    if (!bare_packages.count(folder) || folder.size() < 2) return false;
    const auto slash = folder.rfind('/', folder.size() - 2);
    return slash != std::string_view::npos && used_folders.count(folder.substr(0, slash + 1));
  };
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    if (!by_tests[f] || by_code[f] || !used_folder(path.substr(0, path.rfind('/') + 1)) || file.is_test ||
        file.kind != discover::FileKind::python || file.is_package_init || runs_as_program(file) ||
        impl.dead_module[f] != DeadCode::live)
      continue;
    if (reached_outside_tests(impl, f) || has_entry(impl, f) ||
        named_by_string(strings, file.module_name.view(), false))
      continue;
    impl.dead_module[f] = DeadCode::test_only_module;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::test_only_module;
    }
  }
}

// A local copy of a library's model file (`llava/model/language_model/modeling_llama.py`, whose one import,
// `# from .modeling_llama import LlamaForCausalLM`, is commented out: the models come from transformers) that no repo
// file imports (lazily or not, tests included), no string or config names and no entry point sits in, in a folder
// whose other modules the repo's code does import, of a repo with training entry points: its classes are never
// built. Only `modeling_*.py` files: the name of Hugging Face's model modules, which a repo copies to patch. (Their
// top-level calls, `ALL_LAYERNORM_LAYERS.append(...)` and docstring decorators, run only when something imports them;
// a repo that imports by computed name is no candidate, as in mark_unexported_modules.)
static void mark_orphan_model_copies(Program::Impl& impl, const std::unordered_set<std::string>& strings,
                                     const std::vector<char>& imported) {
  const bool trains = std::any_of(impl.entries.begin(), impl.entries.end(), [&](const EntryPoint& e) {
    return training_roles().test(static_cast<std::size_t>(e.role)) && !impl.files[e.function.file.value].is_test;
  });
  if (!trains) return;
  std::unordered_set<std::string_view> used_folders;  // folders with a module some repo code imports
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    if (!imported[f] || impl.files[f].is_package_init) continue;
    const std::string_view path = impl.files[f].path;
    used_folders.insert(path.substr(0, path.rfind('/') + 1));
  }
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    const std::string_view name = path.substr(path.rfind('/') + 1);
    if (imported[f] || file.is_test || file.kind != discover::FileKind::python || file.is_package_init ||
        !starts_with(name, "modeling_") || runs_as_program(file) || impl.dead_module[f] != DeadCode::live ||
        !used_folders.contains(path.substr(0, path.rfind('/') + 1)))
      continue;
    if (has_entry(impl, f) || named_by_string(strings, file.module_name.view(), true)) continue;
    impl.dead_module[f] = DeadCode::orphan_model_copy;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::orphan_model_copy;
    }
  }
}

// Relocated trees: `lavis.common.annotator` for `from annotator.uniformer.mmseg.apis import ...` in
// `lavis/common/annotator/uniformer/__init__.py`, where the module that import loads is
// `lavis.common.annotator.uniformer.mmseg.apis`: a tree that imports itself by names rooted at one of its own
// folders, a project copied in whole whose imports work from where it came from (or from a `sys.path` entry).
static std::vector<std::string> relocated_trees(const Program::Impl& impl) {
  std::vector<std::string> relocated;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || file.kind != discover::FileKind::python) continue;
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      const auto& fact = file.imports[i];
      if (fact.relative_level != 0 || fact.module.dotted().view().find('.') == std::string_view::npos) continue;
      const auto target = import_target(impl, FileId{f}, i);
      if (!target) continue;
      const std::string_view loaded = impl.files[target->value].module_name.view();
      for (const QualifiedName* named : {&fact.target, &fact.module}) {
        const std::string_view as = named->dotted().view();
        if (loaded.size() <= as.size() || !ends_with(loaded, as) || loaded[loaded.size() - as.size() - 1] != '.')
          continue;
        const std::string root = std::string(loaded.substr(0, loaded.size() - as.size())) +
                                 std::string(named->first_segment());  // "lavis.common." + "annotator"
        if (starts_with(file.module_name.view(), root + ".") &&
            std::find(relocated.begin(), relocated.end(), root) == relocated.end())
          relocated.push_back(root);
        break;
      }
    }
  }
  return relocated;
}

// The name a module of a relocated tree has from the tree's own root (`src.callbacks.gpu_affinity` for
// `training.src.callbacks.gpu_affinity`, as flash-attention's Hydra configs spell `_target_`), or "".
static std::string relocated_name(const std::vector<std::string>& relocated, std::string_view module) {
  for (const std::string& prefix : relocated) {
    if (starts_with(module, prefix) && (module.size() == prefix.size() || module[prefix.size()] == '.')) {
      const auto dot = prefix.rfind('.');
      return std::string(module.substr(dot == std::string::npos ? 0 : dot + 1));
    }
  }
  return {};
}

// Any module that nothing imports, names or starts, whose top level only defines (VILA's `coat/optimizer/fp8_adamw.py`,
// an FP8 optimizer no code builds), in a top-level folder that holds a training entry point (an application's
// package, `llava/` with `llava/train/`): none of its code runs in this repo. A library's package with no training of
// its own (`fastlm/`, `adapters/`) is API its users import; a module at the top of the repo may be loaded by a name
// only a config spells (`auto_map`); and a repo that imports by computed name may load it: unless the name's literal
// prefix (`"fairseq.models." + name`) rules it out, or no prefix is literal and no string of the repo names it.
static void mark_unused_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings,
                                std::vector<char> imported) {
  // `from modeling import PreLlamaModel` in a script beside `modeling.py`: the script's folder is on its path.
  std::unordered_map<std::string_view, std::uint32_t> by_path;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) by_path.emplace(impl.files[f].path.view(), f);
  for (const auto& file : impl.files) {
    const std::string_view folder = file.path.view().substr(0, file.path.view().rfind('/') + 1);
    for (const auto& fact : file.imports) {
      if (fact.relative_level != 0) continue;
      const std::string sibling = std::string(folder) + std::string(fact.module.first_segment()) + ".py";
      if (const auto it = by_path.find(sibling); it != by_path.end()) imported[it->second] = 1;
    }
  }
  const std::unordered_set<std::string_view> training_roots = training_root_folders(impl);
  const std::vector<std::string> prefixes = computed_import_prefixes(impl);
  const std::vector<std::string> relocated = relocated_trees(impl);
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    const std::string_view root = top_folder(path);
    if (imported[f] || file.is_test || file.kind != discover::FileKind::python || file.is_package_init ||
        !ends_with(path, ".py") || runs_as_program(file) || works_at_top_level(file) ||
        impl.dead_module[f] != DeadCode::live || root.empty() || !training_roots.contains(root))
      continue;
    const std::string_view module = file.module_name.view();
    const bool loadable = std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& prefix) {
      return !prefix.empty() && starts_with(module, prefix);
    });
    // (A module of a relocated tree, named by its own root's name: `_target_: src.callbacks.gpu_affinity.X`.)
    const std::string original = relocated_name(relocated, module);
    if (loadable || has_entry(impl, f) || named_by_string(strings, module, true) ||
        (!original.empty() && named_by_string(strings, original, false)) || mirrors_library(file))
      continue;
    impl.dead_module[f] = DeadCode::unused_module;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::unused_module;
    }
  }
}

// The modules a repo that trains runs: from every file that can start on its own or is loaded by a name no import
// spells (a script, a notebook, an entry point, a test, a module a string or a computed import names, anything
// outside the top-level folders holding a training entry point, a top-level package's `__init__`), follow the
// imports (with a package's `__init__`s, which Python runs first; a bare `from modeling import X` of a script's
// neighbour; and, for an import that resolves to no repo file, the modules whose names end with it, as a
// `sys.path` entry would load them). A module outside that closure, in such a folder, is imported only by modules
// that never run: LAVIS's `lavis/common/annotator/uniformer/` (a vendored copy of mmcv and mmseg whose own imports,
// `from annotator.uniformer.mmcv ...`, name a package that is not there) that no module LAVIS runs imports.
static void mark_modules_outside_import_closure(Program::Impl& impl, const std::unordered_set<std::string>& strings,
                                                const std::vector<char>& imported) {
  const std::unordered_set<std::string_view> training_roots = training_root_folders(impl);
  if (training_roots.empty()) return;
  const std::vector<std::string> prefixes = computed_import_prefixes(impl);
  const std::size_t count = impl.files.size();
  std::unordered_map<std::string_view, std::uint32_t> by_module, by_path;
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> by_last_segment;
  for (std::uint32_t f = 0; f < count; ++f) {
    if (impl.files[f].kind != discover::FileKind::python) continue;
    const std::string_view module = impl.files[f].module_name.view();
    by_module.emplace(module, f);
    by_path.emplace(impl.files[f].path.view(), f);
    by_last_segment[module.substr(module.rfind('.') + 1)].push_back(f);
  }
  // The modules an import of a name could load: the file it resolves to; else, for an import no repo file answers
  // (`import foo` after `sys.path.insert(0, "third_party")`), those whose dotted name ends with it, or with it and
  // the imported name.
  // The modules whose dotted names end with `dotted` (`utils.registry`: `lavis.models.ulip_models.utils.registry`
  // and `lavis.common.annotator.uniformer.mmcv.utils.registry`).
  const auto ending_with = [&](std::string_view dotted, std::vector<std::uint32_t>& out) {
    const auto same_last = by_last_segment.find(dotted.substr(dotted.rfind('.') + 1));
    if (same_last == by_last_segment.end()) return;
    for (const std::uint32_t g : same_last->second) {
      const std::string_view module = impl.files[g].module_name.view();
      if (module == dotted || (module.size() > dotted.size() && ends_with(module, dotted) &&
                               module[module.size() - dotted.size() - 1] == '.'))
        out.push_back(g);
    }
  };
  const auto shared_prefix = [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view x = impl.files[a].path.view(), y = impl.files[b].path.view();
    std::size_t n = 0;
    while (n < x.size() && n < y.size() && x[n] == y[n]) ++n;
    return n;
  };
  // The modules an import of a name could load: the repo file it names exactly; else (a relocated tree's `from
  // utils import registry`, with that tree's folder on `sys.path`, or `import foo.bar` after `sys.path.insert(0,
  // "third_party")`) the modules whose names end with it, or with it and the imported name, nearest the importing
  // file (the most path it shares), as the entry `sys.path` holds for that code would find.
  const auto loads = [&](std::uint32_t f, std::size_t i, const auto& visit) {
    const auto& fact = impl.files[f].imports[i];
    if (const auto star = star_import_target(impl, FileId{f}, i)) visit(star->value);
    const auto target = import_target(impl, FileId{f}, i);
    if (target) {
      const std::string_view loaded = impl.files[target->value].module_name.view();
      if (fact.relative_level != 0 || loaded == fact.target.dotted().view() || loaded == fact.module.dotted().view()) {
        visit(target->value);
        return;
      }
    }
    if (fact.relative_level != 0 || fact.module.empty()) return;
    const std::string_view folder = impl.files[f].path.view().substr(0, impl.files[f].path.view().rfind('/') + 1);
    const std::string sibling = std::string(folder) + std::string(fact.module.first_segment()) + ".py";
    if (const auto it = by_path.find(sibling); it != by_path.end()) visit(it->second);
    std::vector<std::uint32_t> named;
    for (const QualifiedName* want : {&fact.module, &fact.target}) {
      // (A one-word name, `import logging`, is a standard or installed module far more often than a repo file on
      // `sys.path`; a script's neighbour is the sibling above.)
      if (want->dotted().view().find('.') != std::string_view::npos) ending_with(want->dotted().view(), named);
    }
    std::size_t best = 0;
    for (const std::uint32_t g : named) best = std::max(best, shared_prefix(f, g));
    bool any = false;
    for (const std::uint32_t g : named) {
      if (shared_prefix(f, g) == best) {
        visit(g);
        any = true;
      }
    }
    if (!any && target) visit(target->value);
  };
  // A file that works at its top level is a script someone runs when nothing imports it, even by such a name.
  std::vector<char> imported_any = imported;
  for (std::uint32_t f = 0; f < count; ++f) {
    if (impl.files[f].is_test) continue;
    for (std::size_t i = 0; i < impl.files[f].imports.size(); ++i)
      loads(f, i, [&](std::uint32_t g) {
        if (g != f) imported_any[g] = 1;
      });
  }
  const std::vector<std::string> relocated = relocated_trees(impl);
  if (relocated.empty()) return;
  const auto candidate = [&](std::uint32_t f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    const std::string_view root = top_folder(path);
    const std::string original = relocated_name(relocated, file.module_name.view());
    if (original.empty() || named_by_string(strings, original, false)) return false;
    if (file.is_test || file.kind != discover::FileKind::python || !ends_with(path, ".py") ||
        impl.dead_module[f] != DeadCode::live || root.empty() || !training_roots.contains(root) ||
        path == std::string(root) + "__init__.py")
      return false;
    // A program someone starts: a `__main__` block, unless the module belongs to a package that imports it (mmseg's
    // `utils/collect_env.py`, a self-test); top-level work, outside a package, in a file nothing imports (a module of
    // one, `mmcv/cnn/bricks/transformer.py`, runs when its package loads it).
    const std::string folder(path.substr(0, path.rfind('/') + 1));
    const bool in_package = by_path.contains(folder + "__init__.py");
    if (runs_as_program(file) && !(in_package && imported_any[f])) return false;
    if (works_at_top_level(file) && !imported_any[f] && !in_package) return false;
    const std::string_view module = file.module_name.view();
    const bool loadable = std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& prefix) {
      return !prefix.empty() && starts_with(module, prefix);
    });
    // (An entry point in a module something imports, an mmcv `OptimizerHook` that calls backward, runs only when
    // that module is loaded; one in a module nothing imports is started some other way, by a console script.)
    // (Only a string of its whole dotted name: a last segment, `"conv"` or `os.path.join(..., "uniformer", "exp")`,
    // is a word too common to say a loader names this module; a computed import's literal prefix is `loadable`.)
    return !loadable && !(has_entry(impl, f) && !imported_any[f]) && !named_by_string(strings, module, false) &&
           !mirrors_library(file);
  };
  std::vector<char> live(count, 0);
  std::vector<std::uint32_t> work;
  const auto reach = [&](std::uint32_t f) {
    if (live[f]) return;
    live[f] = 1;
    work.push_back(f);
  };
  for (std::uint32_t f = 0; f < count; ++f) {
    // Modules already found dead start nothing, nor do tests (a module only they import runs only in them);
    // everything else that is no candidate is a root.
    const bool dead = impl.dead_module[f] != DeadCode::live && impl.files[f].kind == discover::FileKind::python;
    if (!dead && !impl.files[f].is_test && !candidate(f)) reach(f);
  }
  while (!work.empty()) {
    const std::uint32_t f = work.back();
    work.pop_back();
    const auto& file = impl.files[f];
    // Importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first: the packages around it, up to the first
    // folder that is none (a script in `exp/upernet_global_small/`, no package, loads none of its parents').
    for (std::string_view module = file.module_name.view(); !module.empty();) {
      const auto dot = module.rfind('.');
      module = dot == std::string_view::npos ? std::string_view() : module.substr(0, dot);
      const auto it = by_module.find(module);
      if (it == by_module.end() || !impl.files[it->second].is_package_init) break;
      reach(it->second);
    }
    for (std::size_t i = 0; i < file.imports.size(); ++i) loads(f, i, reach);
  }
  for (std::uint32_t f = 0; f < count; ++f) {
    if (live[f] || !candidate(f)) continue;
    impl.dead_module[f] = DeadCode::outside_import_closure;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::outside_import_closure;
    }
  }
}

// A module that its package's `__init__` leaves out while importing a sibling that extends its name, the version
// that supersedes it (InternVL's `patch/flash_sink_attn/flash_sink_attn.py` beside the `flash_sink_attn_gpt_oss.py`
// `__init__` imports), that no repo file imports (lazily or not, tests included), no string or config names and no
// entry point sits in: the package's API is what `__init__` gathers, and nothing reaches this one; a leftover. Scripts,
// modules that register or patch when imported, and modules of a repo that imports by computed name are never
// candidates.
void mark_unexported_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings) {
  const bool by_name = loads_modules_by_name(impl);
  // Every import of a repo module, from any file (tests too), and what each package `__init__` imports.
  std::vector<char> imported(impl.files.size(), 0);
  std::vector<std::string_view> exported;  // paths of modules a package `__init__` imports from its own folder
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    const std::string_view folder = path.substr(0, path.rfind('/') + 1);
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      const auto target = import_target(impl, FileId{f}, i);
      if (const auto star = star_import_target(impl, FileId{f}, i)) imported[star->value] = 1;
      if (!target) continue;
      imported[target->value] = 1;
      const std::string_view to = impl.files[target->value].path;
      if (file.is_package_init && !impl.files[target->value].is_package_init &&
          to.substr(0, to.rfind('/') + 1) == folder)
        exported.push_back(to);
    }
  }
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    if (by_name || imported[f] || file.is_test || file.kind != discover::FileKind::python || file.is_package_init ||
        runs_as_program(file) || works_at_top_level(file) || impl.dead_module[f] != DeadCode::live)
      continue;
    // Only a version the exported one supersedes: `flash_sink_attn.py` beside `flash_sink_attn_gpt_oss.py`. (A
    // library's other modules, `flash_attn_triton_og.py` or apex's `fused_sgd.py`, are API its users import.)
    const std::string_view stem = path.substr(0, path.size() - 3);  // without ".py"
    const bool superseded = std::any_of(exported.begin(), exported.end(), [&](std::string_view sibling) {
      return sibling.size() > stem.size() + 1 && starts_with(sibling, stem) && sibling[stem.size()] == '_';
    });
    if (!ends_with(path, ".py") || !superseded) continue;
    if (has_entry(impl, f) || named_by_string(strings, file.module_name.view(), true)) continue;
    impl.dead_module[f] = DeadCode::unexported_module;
    for (auto& dead : impl.dead_function[f]) {
      if (dead == DeadCode::live) dead = DeadCode::unexported_module;
    }
  }
  if (!by_name) mark_orphan_model_copies(impl, strings, imported);
  mark_unused_modules(impl, strings, imported);
  mark_modules_outside_import_closure(impl, strings, imported);
}

}  // namespace tr2audit::program
