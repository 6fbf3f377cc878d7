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

bool imports_by_computed_name(const facts::CallFact& call) {
  const bool importer =
      call.callee.dotted() == "importlib.import_module" || (call.method.empty() && call.callee_text == "__import__");
  return importer && !call.args.empty() && call.args[0].kind != facts::LiteralKind::string;
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

}  // namespace

void gate_modules_loaded_by_name(Program::Impl& impl) {
  const bool loads_by_name = std::any_of(impl.files.begin(), impl.files.end(), [](const facts::FileFacts& file) {
    return !file.is_test && std::any_of(file.calls.begin(), file.calls.end(), imports_by_computed_name);
  });
  if (!loads_by_name) return;
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
    const std::string option = "config selects " + std::string(module);
    impl.module_gate[f] |= facts::guard_bit(facts::Guard::opt_in);
    if (impl.module_gate_option[f].empty()) impl.module_gate_option[f] = option;
    for (std::size_t i = 0; i < file.functions.size(); ++i) {
      impl.function_gate[f][i] |= facts::guard_bit(facts::Guard::opt_in);
      if (impl.function_gate_option[f][i].empty()) impl.function_gate_option[f][i] = option;
    }
  }
}

}  // namespace tr2audit::program
