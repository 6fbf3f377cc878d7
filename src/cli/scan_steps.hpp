// cli/scan_steps: the steps of `scan` between flags and rendering: scanning a tree with its inline
// suppressions applied, and the baseline and PR-diff parts of the gate. The logic lives in the gate
// module; these functions do the I/O (files, git, temp folders) around it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "tr2audit/gate/config.hpp"
#include "tr2audit/gate/outcome.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/report/report.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::cli {

struct ScanRequest {
  pipeline::ScanOptions options;
  const rules::RuleSet* rules = nullptr;
  const rules::OpTable* op_table = nullptr;      ///< may be null (no operator summary)
  const score::ScoringPolicy* policy = nullptr;  ///< may be null (no recommendation)
  std::string today;                             ///< YYYY-MM-DD for suppression expiry
};

/// Scans root with its inline suppressions applied (run info stamped).
report::Report scan_with_suppressions(const std::filesystem::path& root, const ScanRequest& request);

/// Where the result cache lives for a scan of root, or empty for no cache: --no-cache wins, then
/// --cache-dir, then TR2AUDIT_CACHE_DIR; otherwise $XDG_CACHE_HOME/tr2audit (or ~/.cache/tr2audit),
/// except under CI (CI set, not "false"/"0") and when that folder lies inside the scanned folder.
std::filesystem::path resolve_cache_dir(bool no_cache, const std::string& flag, const std::filesystem::path& root);

/// SHA-256 over the files of the rule folders (rules, operator table, scoring): a cache key part.
std::string knowledge_digest(const std::vector<std::filesystem::path>& folders);

/// The current UTC time as the report stamps it (run.started_at: YYYY-MM-DDTHH:MM:SSZ).
std::string utc_timestamp();

/// Today's date for suppression expiry: TR2AUDIT_TODAY (YYYY-MM-DD, for tests) or the UTC date.
/// nullopt when TR2AUDIT_TODAY is set but malformed.
std::optional<std::string> today_date();

/// Loads the baseline file and marks the report's findings against it (report.gate->baseline);
/// false with a message on failure.
bool load_baseline_file(const std::string& file, report::Report& report, std::string& error);

/// Writes the report's baseline to file; false with a message on failure.
bool write_baseline_file(const std::string& file, const report::Report& report, std::string& error);

/// Exports the merge base into a temp folder, scans it the same way, and records the delta in
/// head.gate->diff (head's findings must already carry their in_diff marks). false with a message
/// when git or the export fails.
bool scan_diff_base(const std::filesystem::path& root, report::Report& head, const ScanRequest& request,
                    const gate::DiffContext& diff, std::string& error);

}  // namespace tr2audit::cli
