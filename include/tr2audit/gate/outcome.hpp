// gate/outcome: what the gate adds to a scan's output. Which findings it looks at (baseline: new
// only; diff: changed lines only), the baseline comparison, the PR-diff delta against the merge
// base, and the decision; rendered as a text section and as additive JSON report fields
// (`baseline`, `diff`, `gate`, and per finding `baseline` / `in_diff`).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tr2audit/gate/baseline.hpp"
#include "tr2audit/gate/diff.hpp"
#include "tr2audit/gate/fail_on.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::gate {

struct DiffDelta {
  std::string ref;
  std::string merge_base;
  std::size_t changed_files = 0;
  std::map<Severity, std::uint32_t> added;    ///< unsuppressed findings on changed lines, by severity
  std::map<Severity, std::uint32_t> removed;  ///< base findings whose fingerprints are gone, by severity
  std::vector<rules::Finding> removed_findings;
  std::optional<score::Assessment> base_recommendation;
};

struct GateOutcome {
  std::vector<bool> gated;  ///< index-aligned with the report's findings
  std::optional<BaselineComparison> baseline;
  std::string baseline_file;
  std::optional<DiffContext> diff;
  std::optional<DiffDelta> delta;
  GateResult result;
  bool criteria_given = false;
};

/// Which findings the gate looks at: unsuppressed ones that are new (with a baseline) and on changed
/// lines (in diff mode).
std::vector<bool> gated_findings(const report::Report& report, const BaselineComparison* baseline,
                                 const ChangedLines* changed);

/// The delta of a change: gated findings on changed lines vs base findings whose fingerprints are gone.
DiffDelta diff_delta(const report::Report& head, const std::vector<bool>& gated, const report::Report& base,
                     const DiffContext& diff);

/// The report the human formats show: only the gated findings (ids unchanged), rules[] trimmed to match.
report::Report gated_view(const report::Report& report, const std::vector<bool>& gated);

/// Adds the gate's fields to a rendered JSON report (additive; key order otherwise unchanged); returns
/// the text unchanged when no gate, baseline or diff was asked for.
std::string annotate_json(const std::string& json_text, const report::Report& report, const GateOutcome& outcome);

/// The gate's text section: baseline counts and fixed findings, the diff delta, and the decision.
/// The same as render_gate_text as a Markdown section for the PR comment (nothing when no gate,
/// baseline or diff was asked for).
void render_gate_markdown(const report::Report& report, const GateOutcome& outcome, std::ostream& out);

void render_gate_text(const report::Report& report, const GateOutcome& outcome, std::ostream& out);

}  // namespace tr2audit::gate
