// gate/baseline: known debt recorded by fingerprint. --write-baseline stores the unsuppressed
// findings of a scan; --baseline compares a later scan against it: findings beyond the recorded
// ones are new (only those gate), recorded ones that are gone are fixed. Fingerprints may repeat,
// so matching counts occurrences: the first n findings of a fingerprint in report order are unchanged.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/report/report.hpp"

namespace tr2audit::gate {

inline constexpr int k_baseline_schema_version = 1;

struct BaselineEntry {
  std::string fingerprint;
  std::string rule_id;
  std::string path;
  std::uint32_t line = 0;  ///< informational: matching uses the fingerprint only
  std::string message;
};

struct Baseline {
  int schema_version = k_baseline_schema_version;
  std::string tool_version;
  std::string target;                  ///< "native" | "xla"
  std::vector<BaselineEntry> entries;  ///< sorted by (path, line, rule_id, fingerprint)
};

/// The baseline of a report: its unsuppressed findings.
Baseline make_baseline(const report::Report& report);
/// Deterministic JSON (sorted entries, fixed key order, trailing newline).
std::string baseline_to_json(const Baseline& baseline);
/// Parses baseline JSON; on failure returns nullopt and sets error (a message without the file name).
std::optional<Baseline> parse_baseline(std::string_view json_text, std::string& error);

enum class BaselineState { none, new_finding, unchanged };
std::string_view to_string(BaselineState state);  ///< "new", "unchanged" ("" for none)

struct BaselineComparison {
  std::vector<BaselineState> states;  ///< index-aligned with report.findings; suppressed ones stay none
  std::uint32_t new_count = 0;
  std::uint32_t unchanged_count = 0;
  std::vector<BaselineEntry> fixed;  ///< in the baseline, gone from the report
};

/// Compares a report with a baseline by fingerprint (with multiplicity).
BaselineComparison compare_with_baseline(const report::Report& report, const Baseline& baseline);

}  // namespace tr2audit::gate
