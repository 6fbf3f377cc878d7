// gate/diff: PR-diff mode. Parses `git diff --unified=0` into the new-side lines each file gained
// or changed, resolves the merge base of a ref with HEAD, and answers "is this finding on a changed
// line?". Paths are relative to the scan root (git runs there with --relative).
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tr2audit::gate {

/// New-side line ranges per path (inclusive, 1-based, merged and sorted).
class ChangedLines {
 public:
  /// Records lines [first, last] of path as changed.
  void add(const std::string& path, std::uint32_t first, std::uint32_t last);
  /// True when line of path is inside a changed range.
  bool contains(const std::string& path, std::uint32_t line) const;
  /// True when path has any changed line.
  bool touches(const std::string& path) const { return m_ranges.count(path) > 0; }
  std::size_t file_count() const { return m_ranges.size(); }
  const std::map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>>& ranges() const { return m_ranges; }

 private:
  std::map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_ranges;
};

/// Parses `git diff --unified=0 --no-color` output: "+++ b/path" headers (quoted paths included,
/// deleted files skipped) and "@@ -a,b +c,d @@" hunks; new files and renames count by their new path.
ChangedLines parse_unified_diff(std::string_view diff);

struct DiffContext {
  std::string ref;         ///< as given (--diff-base)
  std::string merge_base;  ///< full commit id
  std::string prefix;      ///< the scan root relative to the repo top ("" or "sub/dir/")
  ChangedLines changed;
};

/// Resolves `git merge-base REF HEAD` in root (a folder inside a work tree) and diffs the work tree
/// against it. On failure returns nullopt and sets error (not a work tree, unknown ref, git missing).
std::optional<DiffContext> load_diff(const std::filesystem::path& root, const std::string& ref, std::string& error);

}  // namespace tr2audit::gate
