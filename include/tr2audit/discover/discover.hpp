// discover: walks the scan root and yields the files to scan, in a deterministic order, plus a
// Problem for everything it could not or would not read. Input: a root and options; output:
// DiscoveryResult. load_source then reads one file's bytes and checks them (size, binary, UTF-8).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/discover/source_file.hpp"

namespace tr2audit::discover {

struct DiscoveryOptions {
  std::vector<std::string> excludes;  ///< gitignore-style globs relative to the root (--exclude)
  bool respect_gitignore = true;      ///< read .gitignore files (root and nested) and skip what they ignore
  std::uint64_t max_file_size = 5ull * 1024 * 1024;  ///< --max-file-size; larger files become too_large problems
  /// --follow-external-symlinks: read symlinks whose target lies outside the root (off: an outside_root problem).
  bool follow_external_symlinks = false;
};

struct DiscoveryResult {
  std::vector<SourceFile> files;  ///< sorted by rel_path (byte order)
  std::vector<Problem> problems;  ///< sorted by path
  std::uint32_t skipped = 0;      ///< files of a scanned kind that were left out with a problem
};

/// Walks root (a directory, or a single file) and classifies every file tr2audit reads.
/// Skips .git, virtualenvs (a folder holding pyvenv.cfg, or named venv/.venv/env), site-packages,
/// node_modules, __pycache__, build/dist/*.egg-info output, and what .gitignore and excludes name.
/// Symlinks inside the root are followed once; a link back into an ancestor becomes a symlink_loop
/// problem and a link whose target is outside the root an outside_root problem (never read).
DiscoveryResult discover(const std::filesystem::path& root, const DiscoveryOptions& options);

/// Reads and checks one file: unreadable, too large, binary (NUL byte), not UTF-8 (with the byte
/// offset), or an invalid notebook each become a Problem naming rel_path. A UTF-8 BOM is dropped.
struct LoadResult {
  bool ok = false;
  LoadedSource source;
  Problem problem;  ///< set when !ok
};
LoadResult load_source(const SourceFile& file, std::uint64_t max_file_size);

/// Converts notebook JSON to Python text with cell mapping (exposed for tests). IPython magics and
/// shell escapes (lines starting with % or !) become comments so they never parse as code.
LoadResult notebook_to_python(std::string_view json_text, const std::string& rel_path);

/// A Databricks notebook exported as `.py` (first line `# Databricks notebook source`): its IPython lines
/// (`!pip install ...`, `!deepspeed ... \` with its continuation lines, `%pip`) commented out in place, as in a
/// Jupyter notebook's cells; the shell escapes go to `shell_lines`. Any other file is left as it is.
void neutralize_databricks_magics(std::string& text, std::string& shell_lines);

/// True when a path (relative, '/' separated) matches a gitignore-style glob: '*' within a segment,
/// '**' across segments, a leading '/' anchors at the root, a trailing '/' matches directories only.
bool path_matches_glob(std::string_view pattern, std::string_view rel_path, bool is_dir);

}  // namespace tr2audit::discover
