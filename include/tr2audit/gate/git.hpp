// gate/git: runs git for PR-diff mode without a shell and without letting the scanned repo's config
// run code (no hooks, fsmonitor, external diff or textconv), and exports a commit's tree into a
// folder by copying raw blobs (no checkout, so no smudge filters or hooks either).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tr2audit::gate {

struct ProcessResult {
  int exit_code = -1;  ///< -1 when the program could not be started or was killed
  std::string out;
  std::string err;
};

/// Runs argv[0] (looked up in PATH) in cwd with stdin from stdin_file (or /dev/null when empty).
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& stdin_file = {});

/// Runs `git <hardening options> <args>` in cwd.
ProcessResult run_git(const std::vector<std::string>& args, const std::filesystem::path& cwd);

/// The hardening options put before every git subcommand (exposed for tests).
std::vector<std::string> git_safety_options();

/// Writes the files of `commit` under `prefix` (repo-relative folder ending in '/', or "") into dest,
/// paths relative to prefix. Only files discovery reads are exported; symlinks and submodules are
/// left out. Returns an error message, or "" on success.
std::string export_tree(const std::filesystem::path& cwd, const std::string& commit, const std::string& prefix,
                        const std::filesystem::path& dest);

}  // namespace tr2audit::gate
