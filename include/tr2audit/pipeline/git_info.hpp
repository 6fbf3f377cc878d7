// pipeline/git_info: the commit and branch of the work tree holding the scan root, read from the
// .git files directly (no git process is started in the scanned repo, so its config cannot run code).
#pragma once
#include <filesystem>
#include <optional>

#include "tr2audit/report/report.hpp"

namespace tr2audit::pipeline {

/// The commit and branch of the repository enclosing root, or nullopt outside a work tree.
std::optional<report::GitInfo> read_git_info(const std::filesystem::path& root);

}  // namespace tr2audit::pipeline
