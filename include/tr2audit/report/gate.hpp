// report/gate: what the CI gate adds to a report (docs/ci.md). Each finding carries its own marks
// (rules::GateMarks: baseline state, on a changed line); the report carries the baseline comparison,
// the PR-diff delta and the decision. gate/ fills these after the scan; every renderer reads them, so a
// format shows the gate by reading the report, with no step of its own in the CLI.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/rules/finding.hpp"
#include "tr2audit/score/assessment.hpp"

namespace tr2audit::report {

/// A finding known only by its record: a baseline entry, or a finding of the merge base's scan.
struct RecordedFinding {
  std::string fingerprint;
  std::string rule_id;
  std::string path;
  std::uint32_t line = 0;  ///< informational: matching uses the fingerprint only
  std::string message;
};

struct BaselineSummary {
  std::string file;  ///< as given to --baseline
  std::uint32_t new_count = 0;
  std::uint32_t unchanged_count = 0;
  std::vector<RecordedFinding> fixed;  ///< in the baseline, gone from the report (sorted)
};

struct DiffSummary {
  std::string ref;         ///< as given to --diff-base
  std::string merge_base;  ///< full commit id
  std::size_t changed_files = 0;
  std::map<Severity, std::uint32_t> added;    ///< gated findings on changed lines, by severity
  std::map<Severity, std::uint32_t> removed;  ///< base findings whose fingerprints are gone, by severity
  std::vector<RecordedFinding> removed_findings;
  std::optional<score::Verdict> base_verdict;  ///< the merge base's verdict and readiness, when it was scored
  std::uint32_t base_readiness = 0;
};

enum class GateStatus { passed, failed, incomplete };
std::string_view to_string(GateStatus status);  ///< "passed", "failed", "incomplete"

struct GateSummary {
  std::optional<BaselineSummary> baseline;  ///< --baseline
  std::optional<DiffSummary> diff;          ///< --diff-base
  bool criteria_given = false;              ///< --fail-on / --min-readiness / --fail-on-problems
  GateStatus status = GateStatus::passed;
  std::vector<std::string> reasons;  ///< why it failed or is incomplete, one sentence each
};

/// What the gate makes of one finding, most specific first.
enum class GateState {
  gated,         ///< the gate looks at it (new with a baseline, on a changed line with a diff)
  suppressed,    ///< an inline directive suppresses it
  baselined,     ///< recorded in the baseline: known debt
  outside_diff,  ///< not on a line the change touches
};
std::string_view to_string(GateState state);  ///< "gated", "suppressed", "baseline", "outside-diff"

/// The finding's state; `why` (when given) receives a short reason ("recorded in .tr2audit-baseline.json").
GateState gate_state(const GateSummary* gate, const rules::Finding& finding, std::string* why = nullptr);

/// True when the gate looks at the finding: unsuppressed, new against a baseline, on a changed line.
inline bool is_gated(const rules::Finding& finding) {
  return !finding.suppressed && finding.gate.baseline != rules::BaselineState::unchanged &&
         finding.gate.in_diff.value_or(true);
}

std::string_view to_string(rules::BaselineState state);  ///< "new", "unchanged" ("" for none)

}  // namespace tr2audit::report
