// The classes of an application's packages that may be dead for never being built (program/variants' unused-class
// candidates): which top-level folders are an application's packages rather than a library's, which classes a
// decorator registers, and which repos or modules find classes by reflection or by a computed name.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

/// A path in a folder that shows a library's use (`examples/`, `demo/`, `benchmarks/`), or a `test*.py` file.
bool demonstration(std::string_view path) {
  const std::string_view name = path.substr(path.rfind('/') + 1);
  if (name.starts_with("test")) return true;
  for (std::string_view folder : {"examples/", "example/", "demo/", "demos/", "benchmarks/", "benchmark/"}) {
    const std::size_t at = path.find(folder);
    if (at != std::string_view::npos && (at == 0 || path[at - 1] == '/')) return true;
  }
  return false;
}

}  // namespace

// A top-level folder holding a training script (`llava/train/train_mem.py`; not one in an `examples/`, `demo/` or
// `benchmarks/` folder or a `test*.py` file: apex's `contrib/examples/` train with the library), and one holding a
// training entry point or imported by a training script whose `__init__` gathers no API, as an application's does
// (`ldm/`, no `__init__.py`; `scripts/diffusion/train.py` running `opensora/`, whose `__init__.py` is empty). A
// library's `__init__` imports what its users build: DALLE2-pytorch's `VQGanVAETrainer`, which no repo code builds,
// is its users' trainer.
std::unordered_set<std::string_view> application_packages(const Program::Impl& impl) {
  std::unordered_map<std::string_view, std::uint32_t> by_path;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) by_path.emplace(impl.files[f].path.view(), f);
  const auto gathers_api = [&](std::string_view root) {
    const auto init = by_path.find(std::string(root) + "__init__.py");
    return init != by_path.end() && !impl.files[init->second].imports.empty();
  };
  std::unordered_set<std::string_view> roots;
  for (const EntryPoint& e : impl.entries) {
    const FileId script = e.function.file;
    const auto& file = impl.files[script.value];
    if (file.is_test || !training_roles().test(static_cast<std::size_t>(e.role))) continue;
    const std::string_view own = top_folder(file.path);
    if (!demonstration(file.path) && (runs_as_program(file) || !gathers_api(own))) roots.insert(own);
    for (std::size_t i = 0; i < file.imports.size(); ++i) {
      const auto target = import_target(impl, script, i);
      if (!target) continue;
      const std::string_view root = top_folder(impl.files[target->value].path);
      if (!root.empty() && !roots.contains(root) && !gathers_api(root)) roots.insert(root);
    }
  }
  return roots;
}

// Any module-level decorator but `@dataclass`, `@torch.compile(...)` and `@torch.jit.script`:
// `@MODELS.register_module()` builds the class by a config's name.
bool registered_or_wrapped(const facts::FileFacts& file, std::string_view klass) {
  return std::any_of(file.decorators.begin(), file.decorators.end(), [&](const facts::DecoratorFact& d) {
    if (d.decorated != klass || d.ctx.klass >= 0 || d.ctx.function >= 0) return false;
    const std::string name = d.decorator.dotted();
    return name != "dataclasses.dataclass" && name != "dataclass" && name != "torch.compile" &&
           name != "torch.jit.script";
  });
}

// A repo that finds classes by reflection: `__subclasses__`, `__init_subclass__`, a metaclass, `inspect.getmembers`.
bool finds_classes_by_reflection(const Program::Impl& impl) {
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      if (call.method == "__subclasses__" || call.method == "getmembers" || call.callee_text == "inspect.getmembers")
        return true;
    }
    for (const auto& fn : file.functions) {
      if (fn.name == "__init_subclass__") return true;
    }
    for (const auto& c : file.classes) {
      for (const auto& base : c.base_texts) {
        if (base == "type" || base.view().find("metaclass") != std::string_view::npos) return true;
      }
    }
  }
  return false;
}

// The file reads its own namespace (`globals()`, `eval`, `sys.modules`), another file's `getattr(module, name)`
// names it by an import (`name` no string), or an import by computed name can load it (its literal prefix, or a
// string naming the module when none is literal).
std::vector<char> modules_read_by_name(const Program::Impl& impl, const std::unordered_set<std::string>& strings) {
  std::vector<char> out(impl.files.size(), 0);
  const std::vector<std::string> prefixes = computed_import_prefixes(impl);
  // (A name all computed, `import_module(path)`, loads what a string names: "pkg.mod" or "pkg.mod.Class".)
  std::unordered_set<std::string_view> named_modules;
  if (std::any_of(prefixes.begin(), prefixes.end(), [](const std::string& prefix) { return prefix.empty(); })) {
    for (const std::string& text : strings) {
      for (std::size_t dot = text.find('.'); dot != std::string::npos; dot = text.find('.', dot + 1))
        named_modules.insert(std::string_view(text).substr(0, dot));
      named_modules.insert(text);
    }
  }
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    const std::string_view module = file.module_name.view();
    if (named_modules.contains(module) || std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& prefix) {
          return !prefix.empty() && starts_with(module, prefix);
        }))
      out[f] = 1;
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      const std::string_view callee = call.callee_text.view();
      if (callee == "globals" || callee == "locals" || callee == "vars" || callee == "eval") out[f] = 1;
      if (callee != "getattr" || call.args.size() < 2 || call.args[0].kind != facts::LiteralKind::name ||
          call.args[1].kind == facts::LiteralKind::string)
        continue;
      for (std::size_t i = 0; i < file.imports.size(); ++i) {
        const auto& fact = file.imports[i];
        const std::string_view bound = fact.bound_name.empty() ? fact.target.first_segment() : fact.bound_name.view();
        if (bound != call.args[0].value.view()) continue;
        if (const auto target = import_target(impl, FileId{f}, i)) out[target->value] = 1;
      }
    }
    for (const auto& ref : file.references) {
      if (starts_with(ref.name.dotted().view(), "sys.modules")) out[f] = 1;
    }
  }
  return out;
}

}  // namespace tr2audit::program
