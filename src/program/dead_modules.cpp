// Dead patch modules (called by program/variants, which has the repo's name strings): a module that patches
// a library, beside a training script, that nothing imports, names or reaches. Its patch is never applied.
// Test-only modules: a module of the repo that only tests import (a decode-step kernel kept for its test).
#include <algorithm>
#include <string>
#include <string_view>
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
    return call.ctx.has(facts::Guard::import_error_fallback) || call.ctx.has(facts::Guard::except_handler) ||
           call.ctx.has(facts::Guard::type_checking) || name == "getLogger" || name == "get_logger" ||
           name == "logging.getLogger" || name == "TypeVar" || name == "namedtuple";
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
  return std::any_of(impl.entries.begin(), impl.entries.end(),
                     [&](const EntryPoint& e) { return e.function.file.value == f; });
}

// A string of the repo names the module (`"pkg.mod"`, `"pkg.mod.fn"`), or, with `or_stem`, its last segment.
bool named_by_string(const std::unordered_set<std::string>& strings, std::string_view module, bool or_stem) {
  return std::any_of(strings.begin(), strings.end(), [&](const std::string& s) {
    return s == module || (s.size() > module.size() && starts_with(s, module) && s[module.size()] == '.') ||
           (or_stem && s == module.substr(module.rfind('.') + 1));
  });
}

}  // namespace

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

// A module that its package's `__init__` leaves out while importing a sibling that extends its name, the version
// that supersedes it (InternVL's `patch/flash_sink_attn/flash_sink_attn.py` beside the `flash_sink_attn_gpt_oss.py`
// `__init__` imports), that no repo file imports (lazily or not, tests included), no string or config names and no
// entry point sits in: the package's API is what `__init__` gathers, and nothing reaches this one; a leftover. Scripts,
// modules that register or patch when imported, and modules of a repo that imports by computed name are never
// candidates.
void mark_unexported_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings) {
  if (loads_modules_by_name(impl)) return;
  // Every import of a repo module, from any file (tests too), and what each package `__init__` imports.
  std::vector<char> imported(impl.files.size(), 0);
  std::vector<std::string_view> exported;  // paths of modules a package `__init__` imports from its own folder
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view path = file.path;
    const std::string_view folder = path.substr(0, path.rfind('/') + 1);
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      const auto target = import_target(impl, FileId{f}, i);
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
    if (imported[f] || file.is_test || file.kind != discover::FileKind::python || file.is_package_init ||
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
  mark_orphan_model_copies(impl, strings, imported);
}

}  // namespace tr2audit::program
