#include "tr2audit/pipeline/git_info.hpp"

#include <fstream>
#include <sstream>

#include "tr2audit/core/text.hpp"

namespace tr2audit::pipeline {
namespace {

std::optional<std::string> read_first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return std::string(trim(line));
}

/// The .git directory for a work tree folder: a directory, or a file "gitdir: <path>" (worktrees).
std::optional<std::filesystem::path> git_dir_of(const std::filesystem::path& folder) {
  std::error_code ec;
  const auto dot_git = folder / ".git";
  if (std::filesystem::is_directory(dot_git, ec)) return dot_git;
  if (!std::filesystem::is_regular_file(dot_git, ec)) return std::nullopt;
  const auto line = read_first_line(dot_git);
  if (!line || !starts_with(*line, "gitdir:")) return std::nullopt;
  std::filesystem::path target = std::string(trim(std::string_view(*line).substr(7)));
  return target.is_absolute() ? target : folder / target;
}

std::optional<std::string> resolve_ref(const std::filesystem::path& git_dir, const std::string& ref) {
  for (const auto& dir : {git_dir, git_dir / ".." / ".."}) {  // worktrees keep shared refs in the main .git
    if (auto loose = read_first_line(dir / ref)) return loose;
    std::ifstream packed(dir / "packed-refs");
    std::string line;
    while (std::getline(packed, line)) {
      if (line.size() > 41 && ends_with(line, " " + ref)) return line.substr(0, 40);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<report::GitInfo> read_git_info(const std::filesystem::path& root) {
  std::error_code ec;
  std::filesystem::path folder = std::filesystem::absolute(root, ec).lexically_normal();
  if (!folder.empty() && !folder.has_filename()) folder = folder.parent_path();  // "dir/" -> "dir"
  if (!std::filesystem::is_directory(folder, ec)) folder = folder.parent_path();
  const std::filesystem::path scanned = folder;
  for (; !folder.empty(); folder = folder.parent_path()) {
    const auto git_dir = git_dir_of(folder);
    if (git_dir) {
      const auto head = read_first_line(*git_dir / "HEAD");
      if (!head) return std::nullopt;
      report::GitInfo info;
      const std::string relative = scanned.lexically_relative(folder).generic_string();
      if (!relative.empty() && relative != ".") info.prefix = relative + "/";
      if (starts_with(*head, "ref:")) {
        const std::string ref(trim(std::string_view(*head).substr(4)));
        info.branch = starts_with(ref, "refs/heads/") ? ref.substr(11) : ref;
        info.commit = resolve_ref(*git_dir, ref).value_or("");
      } else {
        info.commit = *head;  // detached HEAD
      }
      return info;
    }
    if (folder == folder.parent_path()) break;
  }
  return std::nullopt;
}

}  // namespace tr2audit::pipeline
