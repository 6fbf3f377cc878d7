// discover/classify (private): which files tr2audit reads and which folders it never enters,
// decided from names (and, for folders, from a folder's own listing) without extra syscalls.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/discover/source_file.hpp"

namespace tr2audit::discover {

/// The kind of a file from its '/'-separated rel_path; nullopt for files tr2audit does not read.
std::optional<FileKind> classify_file(std::string_view rel_path);

/// Under tests/, test/ or testing/, or named test_*.py, *_test.py, conftest.py.
bool is_test_path(std::string_view rel_path);

/// Folders skipped by name alone (.git, __pycache__, node_modules, *.egg-info, ...).
bool is_skipped_dir_name(std::string_view name);

/// What a folder's listing says about it; filled by the walker from the entries it read anyway.
struct DirListingTraits {
  bool has_pyvenv_cfg = false;    ///< pyvenv.cfg: a virtualenv
  bool has_build_output = false;  ///< lib.*/bdist.*/temp.* folders, *.whl/*.egg, CMakeCache.txt
  bool has_interpreter = false;   ///< bin/python* or lib/python*/Lib (checked only for venv-like names)
};

/// Names that are virtualenvs when they hold an interpreter (venv, .venv, env, .env).
bool is_venv_like_name(std::string_view name);

/// Whether one entry of a folder's listing marks the folder as build output (see DirListingTraits).
bool marks_build_output(std::string_view entry_name, bool entry_is_dir);

/// True when a folder with this name and listing should not be scanned.
bool is_skipped_dir(std::string_view name, const DirListingTraits& traits);

/// "12.3 MiB" / "512.0 KiB" / "100 bytes".
std::string format_size(std::uint64_t bytes);

}  // namespace tr2audit::discover
