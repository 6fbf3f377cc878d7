// gate/suppress: inline suppressions. Reads `# tr2audit: ignore[RULE-ID] reason` (the finding's line,
// or an own-line comment above it) and `# tr2audit: ignore-file[RULE-ID] reason` from the comments of
// the scanned files and returns a new Report whose findings carry `suppressed`, plus meta findings for
// stale directives (tr2audit.unused-suppression, tr2audit.expired-suppression) and problems for
// malformed ones (no reason, bad date, unknown rule id): a malformed directive suppresses nothing.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/gate/comments.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::gate {

inline constexpr std::string_view k_unused_suppression = "tr2audit.unused-suppression";
inline constexpr std::string_view k_expired_suppression = "tr2audit.expired-suppression";

/// One well-formed directive.
struct Directive {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool file_level = false;
  bool own_line = false;              ///< the comment stands alone on its line (then it covers the next code line)
  std::vector<std::string> rule_ids;  ///< exact ids or globs ("cuda-api.*"); never a bare "*"
  std::string reason;
  std::string until;  ///< YYYY-MM-DD or empty
};

struct ParsedDirectives {
  std::vector<Directive> directives;
  std::vector<Problem> problems;  ///< invalid_config problems naming path:line:col
};

/// Reads the directives of one file's comments. known_rule_ids (sorted) checks ids and globs; empty = unchecked.
ParsedDirectives parse_directives(const std::vector<Comment>& comments, const std::string& path,
                                  const std::vector<std::string>& known_rule_ids);

/// True for a real calendar date written YYYY-MM-DD.
bool is_iso_date(std::string_view text);

struct SuppressOptions {
  std::string today;                        ///< YYYY-MM-DD: directives with until < today have expired
  std::vector<std::string> known_rule_ids;  ///< sorted ids of the loaded rules
};

/// Applies one file's directives (file.directives, collected with its facts) to that file's findings:
/// sets `suppressed`, appends meta findings for stale directives and problems for malformed ones.
/// text is the file's scanned text (for the meta findings' snippets).
void apply_directives(const facts::FileFacts& file, std::string_view text, const SuppressOptions& options,
                      std::vector<rules::Finding>& findings, std::vector<Problem>& problems);

/// Lists the meta rules (unused / expired suppression) in report.rules when findings of them exist.
void add_suppression_rule_info(report::Report& report);

/// The scanned text of a repo-relative path (a notebook's joined code), or nullopt when unreadable.
using SourceReader = std::function<std::optional<discover::LoadedSource>(const std::string& rel_path)>;

/// Applies the directives of `files` (repo-relative paths: every scanned file, so stale directives in
/// files without findings are seen too) and returns the new report, renumbered. For reports made
/// elsewhere: pipeline::scan applies the directives itself, from the facts, in the same pass.
report::Report apply_suppressions(const report::Report& in, const std::vector<std::string>& files,
                                  const SourceReader& read, const SuppressOptions& options);

}  // namespace tr2audit::gate
