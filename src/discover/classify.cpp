// discover/classify: file kinds, test files and skipped folders, decided from names.
#include "discover/classify.hpp"

#include <array>
#include <cstdio>

#include "tr2audit/core/text.hpp"

namespace tr2audit::discover {
namespace {

constexpr std::array<std::string_view, 13> k_skipped_dir_names{
    ".git", ".hg",  ".svn",        "__pycache__",   "node_modules", "site-packages",      "dist-packages",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",  ".ipynb_checkpoints",
};

constexpr std::array<std::string_view, 4> k_venv_like_names{"venv", ".venv", "env", ".env"};
constexpr std::array<std::string_view, 3> k_test_dirs{"tests", "test", "testing"};

std::string_view file_name_of(std::string_view rel_path) {
  const std::size_t slash = rel_path.rfind('/');
  return slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
}

/// The folder directly holding the file ("" at the root).
std::string_view parent_name_of(std::string_view rel_path) {
  const std::size_t slash = rel_path.rfind('/');
  if (slash == std::string_view::npos) return {};
  const std::string_view dir = rel_path.substr(0, slash);
  return file_name_of(dir);
}

}  // namespace

std::optional<FileKind> classify_file(std::string_view rel_path) {
  const std::string_view name = file_name_of(rel_path);
  if (ends_with(name, ".py")) return FileKind::python;
  if (ends_with(name, ".pyi")) return FileKind::python_stub;
  if (ends_with(name, ".ipynb")) return FileKind::notebook;
  if (ends_with(name, ".cu") || ends_with(name, ".cuh")) return FileKind::cuda_source;
  if (ends_with(name, ".h") || ends_with(name, ".hpp") || ends_with(name, ".hxx") || ends_with(name, ".inl"))
    return FileKind::cxx_header;
  if (name == "pyproject.toml") return FileKind::pyproject;
  if (name == "setup.cfg") return FileKind::setup_cfg;
  const std::string lower = to_lower(name);
  if (lower == "dockerfile" || starts_with(lower, "dockerfile.") || ends_with(lower, ".dockerfile"))
    return FileKind::dockerfile;
  const bool yaml = ends_with(lower, ".yaml") || ends_with(lower, ".yml");
  // `environment.yml`, `environment-gpu.yaml`, `conda_env.yml`: what `conda env create -f` installs.
  if (yaml && (starts_with(lower, "environment") || starts_with(lower, "conda"))) return FileKind::conda_env;
  if (yaml || ends_with(lower, ".json") || ends_with(lower, ".sh")) return FileKind::config;
  // `requirements.txt`, `requirements-dev.txt`, `dev-requirements.txt`, `efficiency_requirements.txt`,
  // and any .txt in a `requirements/` folder.
  if (ends_with(lower, ".txt") &&
      (starts_with(lower, "requirements") || ends_with(lower, "-requirements.txt") ||
       ends_with(lower, "_requirements.txt") || to_lower(parent_name_of(rel_path)) == "requirements")) {
    return FileKind::requirements;
  }
  return std::nullopt;
}

bool is_test_path(std::string_view rel_path) {
  const std::string_view name = file_name_of(rel_path);
  if (name == "conftest.py" || ends_with(name, "_test.py")) return true;
  if (starts_with(name, "test_") && ends_with(name, ".py")) return true;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = rel_path.find('/', start);
    if (slash == std::string_view::npos) return false;  // the last segment is the file name
    const std::string_view segment = rel_path.substr(start, slash - start);
    for (std::string_view dir : k_test_dirs) {
      if (segment == dir) return true;
    }
    start = slash + 1;
  }
}

bool is_skipped_dir_name(std::string_view name) {
  for (std::string_view skipped : k_skipped_dir_names) {
    if (name == skipped) return true;
  }
  return ends_with(name, ".egg-info");
}

bool is_venv_like_name(std::string_view name) {
  for (std::string_view venv : k_venv_like_names) {
    if (name == venv) return true;
  }
  return false;
}

bool marks_build_output(std::string_view entry_name, bool entry_is_dir) {
  if (entry_is_dir) {
    return starts_with(entry_name, "lib.") || starts_with(entry_name, "bdist.") || starts_with(entry_name, "temp.");
  }
  return ends_with(entry_name, ".whl") || ends_with(entry_name, ".egg") || ends_with(entry_name, ".tar.gz") ||
         entry_name == "CMakeCache.txt";
}

bool is_skipped_dir(std::string_view name, const DirListingTraits& traits) {
  if (is_skipped_dir_name(name) || traits.has_pyvenv_cfg) return true;
  if (is_venv_like_name(name) && traits.has_interpreter) return true;
  return (name == "build" || name == "dist") && traits.has_build_output;
}

std::string format_size(std::uint64_t bytes) {
  char buffer[48];
  if (bytes < 1024) {
    std::snprintf(buffer, sizeof buffer, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else if (bytes < 1024ull * 1024) {
    std::snprintf(buffer, sizeof buffer, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return buffer;
}

}  // namespace tr2audit::discover
