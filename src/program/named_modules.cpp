// Plugin modules loaded only by name. A repo that imports modules by a computed name
// (`importlib.import_module(target)` with `target` from the command line or a config: torchtitan's
// `--override.imports`, plugin folders) runs a module of its packages that no repo file imports (not
// even with `from .m import *`) and that is imported for its effects (it registers or overrides
// something at its top level: `@override(...)`, `@MODELS.register_module()`, `register_x(...)`, or
// patches a library: `torch.nn.RMSNorm.forward = ...`) only when a user names it. Unless a string of the
// repo's code or a shipped config names the module (its dotted path, or a definition in it:
// `"torchtitan.overrides.helion_rope.helion_cos_sin_rope"`), its top level and its functions get the
// opt-in gate, "config selects <module>", which what they call inherits (program/inherit). A module of
// definitions only is API for the repo's users, not a plugin; scripts (a `__main__` block, a notebook, a
// file outside any package), package `__init__` files, modules with an entry point and test code are
// never candidates.
#include <algorithm>
#include <unordered_set>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

bool top_level(const facts::Context& ctx) {
  return ctx.function < 0 && ctx.klass < 0;
}

/// A registration a module makes for others to find, not one of its own ops' parts (`@op.register_fake`).
bool registers(std::string_view text) {
  const std::string lower = to_lower(text);
  if (lower.find("register_fake") != std::string::npos || lower.find("register_autograd") != std::string::npos ||
      lower.find("register_kernel") != std::string::npos || lower.find("register_buffer") != std::string::npos)
    return false;
  return lower.find("register") != std::string::npos || lower.find("override") != std::string::npos;
}

bool imported_for_effects(const facts::FileFacts& file) {
  for (const auto& decorator : file.decorators) {
    if (top_level(decorator.ctx) && registers(decorator.text)) return true;
  }
  for (const auto& call : file.calls) {
    if (top_level(call.ctx) && registers(call.method.empty() ? call.callee_text.view() : call.method.view()))
      return true;
  }
  return std::any_of(file.assigns.begin(), file.assigns.end(), [](const facts::AssignFact& assign) {
    const FactString& target = assign.target.dotted();
    return top_level(assign.ctx) && assign.target_is_import && std::count(target.begin(), target.end(), '.') >= 2;
  });
}

/// The strings that may name a module: name-shaped literals of the code and shipped config values.
std::unordered_set<std::string_view> naming_strings(const Program::Impl& impl) {
  std::unordered_set<std::string_view> out;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& s : file.name_strings) out.insert(s.view());
    for (const auto& setting : file.settings) out.insert(setting.value.view());
  }
  return out;
}

bool names_module(const std::unordered_set<std::string_view>& strings, std::string_view module) {
  return std::any_of(strings.begin(), strings.end(), [&](std::string_view s) {
    return s == module || (s.size() > module.size() && starts_with(s, module) && s[module.size()] == '.');
  });
}

void gate_file(Program::Impl& impl, std::size_t f, const std::string& option) {
  impl.module_gate[f] |= facts::guard_bit(facts::Guard::opt_in);
  if (impl.module_gate_option[f].empty()) impl.module_gate_option[f] = option;
  for (std::size_t i = 0; i < impl.files[f].functions.size(); ++i) {
    impl.function_gate[f][i] |= facts::guard_bit(facts::Guard::opt_in);
    if (impl.function_gate_option[f][i].empty()) impl.function_gate_option[f][i] = option;
  }
}

/// A top-level import (`from pkg.integrations.diffusion import generate` in an inference CLI's helpers) whose
/// names the importing file uses, and uses only in functions off the training path: the module level that
/// runs it is setup of whatever imports that file, but nothing of the imported module runs in training.
template <typename OffTraining>
bool used_off_training(const Program::Impl& impl, FileId importer, std::size_t index, const OffTraining& off_training) {
  const auto& file = impl.files[importer.value];
  const auto& fact = file.imports[index];
  if (fact.ctx.function >= 0 || fact.star) return false;
  const std::string_view target = fact.target.dotted().view();
  const auto names = [&](std::string_view dotted) {
    return dotted == target ||
           (dotted.size() > target.size() && starts_with(dotted, target) && dotted[target.size()] == '.');
  };
  bool used = false;
  const auto use = [&](const QualifiedName& name, const facts::Context& ctx) {
    if (!names(name.dotted().view())) return true;
    used = true;
    return ctx.function >= 0 && off_training(importer, ctx.function);
  };
  for (const auto& call : file.calls) {
    if (!use(call.callee, call.ctx)) return false;
  }
  for (const auto& ref : file.references) {
    if (!use(ref.name, ref.ctx)) return false;
  }
  return used;
}

/// Plugin packages: a sub-package (axolotl's `integrations/kernels/`) that no other module imports on the
/// training path, in a repo that loads modules by a computed name, runs only when a user's config names it
/// (`plugins: [axolotl.integrations.kernels.KernelsPlugin]`). Imports from other plugin packages, and from
/// code no training entry point reaches (a LoRA-merge command, tests), do not count. Its files
/// (CUDA sources too) get the opt-in gate, "config lists plugin <package>", when some shipped config files list
/// it by its dotted path under a plugin key but no more than half of them do, no code outside it names it in a string
/// (a default plugin list), and none of its files is a script that nothing imports.
void gate_plugin_packages(Program::Impl& impl) {
  struct Package {
    std::size_t init;
    std::string folder;
    bool plugin = false;
  };
  const auto names = [](std::string_view text, std::string_view module) {
    return text == module || (text.size() > module.size() && starts_with(text, module) && text[module.size()] == '.');
  };
  // What shipped configs list under a plugin key (`plugins: [pkg.integrations.x.XPlugin]`); most repos have none.
  std::vector<std::string_view> listed;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& setting : file.settings) {
      if (to_lower(setting.key).find("plugin") != std::string::npos) listed.push_back(setting.value.view());
    }
  }
  if (listed.empty()) return;
  std::vector<Package> candidates;
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || !file.is_package_init) continue;
    const std::string_view module = file.module_name.view();
    const auto dot = module.rfind('.');
    if (dot == std::string_view::npos || !impl.symbols->module(module.substr(0, dot))) continue;  // a top package
    if (std::none_of(listed.begin(), listed.end(), [&](std::string_view v) { return names(v, module); })) continue;
    const FactString& path = file.path;
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) continue;
    candidates.push_back(Package{f, std::string(path.substr(0, slash + 1))});
  }
  if (candidates.empty()) return;
  std::size_t config_files = 0;
  for (const auto& file : impl.files) config_files += !file.is_test && !file.settings.empty();
  // What can disqualify a package without looking at other packages: a script in it, or a name of it outside.
  std::vector<std::vector<std::size_t>> members(candidates.size());
  std::vector<bool> possible(candidates.size(), true);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const Package& package = candidates[c];
    const std::string_view module = impl.files[package.init].module_name.view();
    std::size_t naming_configs = 0;
    for (std::size_t f = 0; f < impl.files.size() && possible[c]; ++f) {
      const auto& file = impl.files[f];
      if (file.is_test) continue;
      if (starts_with(file.path, package.folder)) {
        members[c].push_back(f);
        // (A module with a `__main__` self-test that others import is still the plugin's module.)
        if (runs_as_program(file) && impl.imported_by[f].empty()) possible[c] = false;
        continue;
      }
      for (const auto& s : file.name_strings) {
        if (names(s.view(), module)) possible[c] = false;
      }
      // (Under a plugin list's key: a `_component_:` that names a builder picks a part every run has.)
      naming_configs += std::any_of(file.settings.begin(), file.settings.end(), [&](const facts::SettingFact& setting) {
        return names(setting.value.view(), module) && to_lower(setting.key).find("plugin") != std::string::npos;
      });
    }
    // (A package no config names may be chosen by a required option, `--model.name llama3`: no gate.)
    if (naming_configs == 0 || naming_configs * 2 > config_files) possible[c] = false;
  }
  const auto off_training = [&](FileId file, std::int32_t function) {
    const FunctionState& st = impl.at(FunctionId{file, function});
    return !st.training_reached && (st.roles & training_roles()).none();
  };
  // Greatest fixpoint: a package stays a plugin while every outside import of its files comes from a
  // plugin package or from code off the training path.
  for (std::size_t c = 0; c < candidates.size(); ++c) candidates[c].plugin = possible[c];
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (!candidates[c].plugin) continue;
      const auto in_plugin = [&](std::size_t f) {
        for (const Package& other : candidates) {
          if (other.plugin && starts_with(impl.files[f].path, other.folder)) return true;
        }
        return false;
      };
      bool plugin = true;
      for (const std::size_t f : members[c]) {
        for (const auto& [importer, index] : impl.imported_by[f]) {
          if (starts_with(impl.files[importer.value].path, candidates[c].folder) || in_plugin(importer.value)) continue;
          if (!off_training(importer, impl.files[importer.value].imports[index].ctx.function) &&
              !used_off_training(impl, importer, index, off_training))
            plugin = false;
        }
      }
      if (!plugin) {
        candidates[c].plugin = false;
        changed = true;
      }
    }
  }
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (!candidates[c].plugin) continue;
    const std::string option = "config lists plugin " + std::string(impl.files[candidates[c].init].module_name.view());
    for (const std::size_t f : members[c]) gate_file(impl, f, option);
  }
}

}  // namespace

bool computed_import_call(const facts::CallFact& call) {
  const bool importer =
      call.callee.dotted() == "importlib.import_module" || (call.method.empty() && call.callee_text == "__import__");
  return importer && !call.args.empty() && call.args[0].kind != facts::LiteralKind::string;
}

// `importlib.import_module(target)` / `__import__(name)` with a computed name, outside tests.
bool loads_modules_by_name(const Program::Impl& impl) {
  return std::any_of(impl.files.begin(), impl.files.end(), [](const facts::FileFacts& file) {
    return !file.is_test && std::any_of(file.calls.begin(), file.calls.end(), computed_import_call);
  });
}

void gate_modules_loaded_by_name(Program::Impl& impl) {
  if (!loads_modules_by_name(impl)) return;
  std::vector<char> reached(impl.files.size(), 0);  // an entry point, or besides Impl::imported_by `from .m import *`
  for (const EntryPoint& entry : impl.entries) reached[entry.function.file.value] = 1;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& fact : file.imports) {
      if (!fact.star) continue;
      if (const auto target = impl.symbols->module(fact.module.dotted())) reached[target->value] = 1;
    }
  }
  const auto strings = naming_strings(impl);
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || file.kind != discover::FileKind::python || file.is_package_init || reached[f] ||
        !impl.imported_by[f].empty() || runs_as_program(file) || !imported_for_effects(file))
      continue;
    const std::string_view module = file.module_name.view();
    const auto dot = module.rfind('.');
    if (dot == std::string_view::npos || !impl.symbols->module(module.substr(0, dot))) continue;  // a script
    if (names_module(strings, module)) continue;
    gate_file(impl, f, "config selects " + std::string(module));
  }
  gate_plugin_packages(impl);
}

}  // namespace tr2audit::program
