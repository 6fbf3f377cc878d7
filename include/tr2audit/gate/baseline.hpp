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

/// One recorded finding (fingerprint, rule id, path, line, message).
using BaselineEntry = report::RecordedFinding;

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

using BaselineState = rules::BaselineState;

/// Compares a report with a baseline by fingerprint (with multiplicity): marks each unsuppressed
/// finding new or unchanged and returns the counts and the fixed entries. Suppressed findings are
/// marked too (unchanged when the baseline holds their fingerprint) but count neither way.
report::BaselineSummary compare_with_baseline(report::Report& report, const Baseline& baseline);

}  // namespace tr2audit::gate
