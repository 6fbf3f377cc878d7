// Vendored projects: another project copied into the repo (its own setup.py, pyproject.toml, setup.cfg
// or requirements file, in a folder named for vendored code: `third_party/`, `dependencies/`, ...). Its own training
// scripts and examples are not the repo's entry points; its code takes roles only from the repo's own
// code that reaches it, and the rules report what nothing of the repo reaches off the training path.
#include <algorithm>
#include <array>
#include <string_view>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

/// Folder names under which repos keep copies of other projects.
constexpr std::array<std::string_view, 13> k_vendor_folders{
    "third_party",  "third-party", "thirdparty", "3rdparty",  "vendor", "vendored",  "_vendor",
    "dependencies", "deps",        "external",   "externals", "extern", "submodules"};

bool is_project_manifest(const facts::FileFacts& file) {
  const std::string_view path = file.path.view();
  const std::string_view name = path.substr(path.rfind('/') + 1);
  return name == "setup.py" || name == "pyproject.toml" || name == "setup.cfg" ||
         file.kind == discover::FileKind::requirements;
}

/// True when some folder of `folder` (a path without a trailing slash) is a vendoring folder.
bool under_vendor_folder(std::string_view folder) {
  while (!folder.empty()) {
    const auto slash = folder.find('/');
    const std::string_view part = folder.substr(0, slash);
    if (std::find(k_vendor_folders.begin(), k_vendor_folders.end(), part) != k_vendor_folders.end()) return true;
    if (slash == std::string_view::npos) break;
    folder.remove_prefix(slash + 1);
  }
  return false;
}

}  // namespace

void find_vendored_projects(Program::Impl& impl) {
  std::vector<std::string> roots;  // "a/dependencies/Lib/"
  for (const auto& file : impl.files) {
    if (file.is_test || !is_project_manifest(file)) continue;
    const std::string_view path = file.path.view();
    const auto slash = path.rfind('/');
    if (slash == std::string_view::npos) continue;  // the repo's own manifest
    const std::string_view folder = path.substr(0, slash);
    if (under_vendor_folder(folder)) roots.emplace_back(std::string(folder) + "/");
  }
  impl.vendored.assign(impl.files.size(), false);
  if (roots.empty()) return;
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const std::string_view path = impl.files[f].path.view();
    impl.vendored[f] =
        std::any_of(roots.begin(), roots.end(), [&](const std::string& root) { return starts_with(path, root); });
  }
}

}  // namespace tr2audit::program
