// gate/fail_on: the pass/fail decision of `scan`. Criteria (--fail-on SEVERITY|VERDICT,
// --min-readiness, --fail-on-problems) are checked against the findings the gate looks at (all
// unsuppressed ones, or only new / changed-line ones) and the report's recommendation.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/report/report.hpp"
#include "tr2audit/score/assessment.hpp"

namespace tr2audit::gate {

struct FailOn {
  std::optional<Severity> severity;      ///< fail on any gated finding at or above it
  std::vector<score::Verdict> verdicts;  ///< fail when the recommendation is one of these
  std::optional<std::uint32_t> min_readiness;
  bool problems = false;  ///< --fail-on-problems
  bool any() const { return severity || !verdicts.empty() || min_readiness || problems; }
};

/// Adds one --fail-on value (a severity or a verdict); false with a message (and suggestion) otherwise.
bool add_fail_on(FailOn& criteria, std::string_view value, std::string& error);

using GateStatus = report::GateStatus;

struct GateResult {
  GateStatus status = GateStatus::passed;
  std::vector<std::string> reasons;  ///< why it failed or is incomplete, one sentence each
};

/// Problems that mean the scan did not look at everything it should have (exit 3): a parse that
/// ran out of time, an internal error, a file too deep to walk, or an unreadable scan root.
bool makes_scan_incomplete(const Problem& problem);

/// Decides the gate over the findings it looks at (report::is_gated: never suppressed ones; only new
/// ones with a baseline, only changed lines with a diff). Incomplete wins over failed.
GateResult evaluate_gate(const report::Report& report, const FailOn& criteria);

}  // namespace tr2audit::gate
