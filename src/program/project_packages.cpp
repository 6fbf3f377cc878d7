// Project and namespace packages (program/symbols.hpp): short names a project's own scripts import a
// nested package by, with that folder on sys.path.
#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "program/symbols.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {

// `projects/DensePose/densepose/` imported as `densepose` by the project's own scripts (`from
// densepose.engine import Trainer`): they run with the project folder on sys.path. A nested package
// name is taken for that package when it is the only repo package of that name, no top-level module
// has it, and every file importing it lies in the folder that holds it (a file elsewhere importing
// the name means a library of that name: a vendored `third_party/transformers` is not `transformers`).
void Symbols::find_project_packages() {
  // A `src/` layout imported through the folder itself (`from src.helper import init_opt`, `src` a namespace
  // package the scripts at the repo's root import): `src.helper` names the module the layout strips to `helper`.
  const bool src_layout = std::any_of(m_files.begin(), m_files.end(), [](const facts::FileFacts& f) {
    return starts_with(f.path, "src/") && !f.module_name.empty();
  });
  const bool imports_src = std::any_of(m_files.begin(), m_files.end(), [](const facts::FileFacts& f) {
    return std::any_of(f.imports.begin(), f.imports.end(), [](const facts::ImportFact& i) {
      return i.relative_level == 0 && i.module.first_segment() == "src";
    });
  });
  // (`src/__init__.py` names itself `src` while the layout strips `src.` from the modules beside it, as in the
  // lightning-hydra template: that is no top-level module `src` of another tree.)
  const bool src_root_elsewhere = std::any_of(m_files.begin(), m_files.end(), [](const facts::FileFacts& f) {
    return (f.module_name == "src" && f.path != "src/__init__.py") ||
           (starts_with(f.module_name, "src.") && !starts_with(f.path, "src/"));
  });
  if (src_layout && imports_src && (!m_roots.contains("src") || !src_root_elsewhere)) {
    m_project_packages.emplace("src", std::string_view());
    m_roots.insert("src");
  }
  std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>
      found;  // name -> (module, folder)
  std::unordered_set<std::string_view> refused;
  const auto candidate = [&](std::string_view module, std::string_view folder) {
    const std::string_view name = module.substr(module.rfind('.') + 1);
    if (m_roots.contains(name)) return;  // a top-level module of that name is what `import name` finds
    const auto [it, inserted] = found.emplace(name, std::make_pair(module, folder));
    if (!inserted && it->second.first != module) refused.insert(name);
  };
  for (const auto& file : m_files) {
    const std::string_view module = file.module_name;
    const auto dot = module.rfind('.');
    if (dot == std::string_view::npos || file.is_test) continue;
    const std::string_view path = file.path;
    if (file.is_package_init) {
      const auto package_dir = path.rfind('/');
      const auto holder =
          package_dir == std::string_view::npos ? std::string_view::npos : path.rfind('/', package_dir - 1);
      if (holder != std::string_view::npos) candidate(module, path.substr(0, holder + 1));  // "projects/DensePose/"
      continue;
    }
    // A namespace package (a folder without `__init__.py`: litgpt's `extensions/xla/`, imported as `xla`
    // by the scripts beside it) is each folder a module's name passes through below the top.
    std::size_t module_end = dot;              // end of the enclosing package's name in `module`
    std::size_t folder_end = path.rfind('/');  // end of its folder in `path`
    while (folder_end != std::string_view::npos && folder_end > 0) {
      const auto parent_dot = module.rfind('.', module_end - 1);
      const auto holder = path.rfind('/', folder_end - 1);
      if (parent_dot == std::string_view::npos || holder == std::string_view::npos) break;
      if (path.substr(holder + 1, folder_end - holder - 1) !=
          module.substr(parent_dot + 1, module_end - parent_dot - 1))
        break;  // the path and the module name part ways (a `src/` layout's root)
      candidate(module.substr(0, module_end), path.substr(0, holder + 1));
      module_end = parent_dot;
      folder_end = holder;
    }
  }
  add_declared_packages();
  if (found.empty()) return;
  std::unordered_set<std::string_view> imported;
  for (const auto& file : m_files) {
    for (const auto& fact : file.imports) {
      if (fact.relative_level != 0) continue;
      const std::string_view first = fact.module.first_segment();
      const auto it = found.find(first);
      if (it == found.end()) continue;
      if (starts_with(file.path, it->second.second))
        imported.insert(first);
      else
        refused.insert(first);
    }
  }
  for (const auto& [name, where] : found) {
    if (!imported.contains(name) || refused.contains(name)) continue;
    m_project_packages.emplace(name, where.first);
    m_roots.insert(name);
  }
}

// Packages a manifest installs from a folder of its own (pyproject's `[tool.setuptools.packages.find] where =
// ["pkg"]` or `package-dir = {"" = "pkg"}`, setup.py's `package_dir={"": "pkg"}` or `find_packages("pkg")`):
// `pkg/llms_from_scratch/` is imported as `llms_from_scratch` from anywhere once installed (LLMs-from-scratch's
// chapter scripts and chat apps). Only the repo's own manifest, at its root: a sub-project's (microsoft/LoRA's
// `examples/NLU/setup.py` over a copy of `transformers`) installs a package only its own folder uses, and the
// rest of the repo imports the library of that name. A `src/` root is already stripped from module names.
void Symbols::add_declared_packages() {
  std::unordered_set<std::string> roots;  // "pkg/"
  const auto add_root = [&](std::string_view written) {
    const std::string_view folder = facts::package_root_folder(written);
    if (!folder.empty() && folder != "src") roots.insert(std::string(folder) + "/");
  };
  for (const auto& file : m_files) {
    const std::string_view path = file.path;
    if (file.kind == discover::FileKind::pyproject && path == "pyproject.toml") {
      for (const auto& dep : file.dependencies) {
        if (dep.section == "package-root") add_root(dep.name.view());
      }
    } else if (file.kind == discover::FileKind::python && path == "setup.py") {
      for (const auto& call : file.calls) {
        const std::string_view last = call.callee.last_segment();
        for (const auto& arg : call.args) {
          if ((last == "find_packages" || last == "find_namespace_packages") &&
              (arg.keyword == "where" || (arg.keyword.empty() && &arg == &call.args[0])) &&
              arg.kind == facts::LiteralKind::string)
            add_root(arg.value.view());
          if (arg.keyword == "package_dir") add_root(facts::root_package_dir(arg.value.view(), ':'));
        }
      }
    }
  }
  if (roots.empty()) return;
  for (const auto& file : m_files) {
    if (!file.is_package_init || file.is_test) continue;
    const std::string_view path = file.path;  // "pkg/llms_from_scratch/__init__.py"
    const auto package_dir = path.rfind('/');
    if (package_dir == std::string_view::npos) continue;
    const auto holder = path.rfind('/', package_dir - 1);
    const std::string folder(holder == std::string_view::npos ? std::string_view() : path.substr(0, holder + 1));
    if (!roots.count(folder)) continue;
    const std::string_view module = file.module_name.view();
    const std::string_view name = module.substr(module.rfind('.') + 1);
    if (m_roots.contains(name) || m_project_packages.contains(name)) continue;
    m_project_packages.emplace(name, module);
    m_roots.insert(name);
  }
}

std::string_view Symbols::canonical(std::string_view dotted, std::string& buffer) const {
  if (m_project_packages.empty()) return dotted;
  const auto it = m_project_packages.find(dotted.substr(0, dotted.find('.')));
  if (it == m_project_packages.end()) return dotted;
  if (it->second.empty()) return dotted.size() > it->first.size() ? dotted.substr(it->first.size() + 1) : dotted;
  buffer.assign(it->second);
  buffer += dotted.substr(it->first.size());
  return buffer;
}

}  // namespace tr2audit::program
