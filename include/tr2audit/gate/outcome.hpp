// gate/outcome: writes what the gate finds into the report model (report/gate.hpp): each finding's
// marks (on a changed line; the baseline marks come from gate/baseline), the PR-diff delta against the
// merge base, and the decision. Renderers read the report; nothing here formats output.
#pragma once
#include "tr2audit/gate/baseline.hpp"
#include "tr2audit/gate/diff.hpp"
#include "tr2audit/gate/fail_on.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::gate {

/// Marks each finding in_diff (on a changed line or not).
void mark_changed_lines(report::Report& report, const ChangedLines& changed);

/// The delta of a change: gated findings of head (on changed lines) vs base findings whose fingerprints are gone.
report::DiffSummary diff_delta(const report::Report& head, const report::Report& base, const DiffContext& diff);

/// Records the decision in report.gate (created when missing).
void record_decision(report::Report& report, const GateResult& result, bool criteria_given);

}  // namespace tr2audit::gate
