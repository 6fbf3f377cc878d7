#include "tr2audit/gate/outcome.hpp"

#include <set>
#include <string>

namespace tr2audit::gate {

void mark_changed_lines(report::Report& report, const ChangedLines& changed) {
  for (auto& f : report.findings) f.gate.in_diff = changed.contains(f.path, f.at.line);
}

report::DiffSummary diff_delta(const report::Report& head, const report::Report& base, const DiffContext& diff) {
  report::DiffSummary delta;
  delta.ref = diff.ref;
  delta.merge_base = diff.merge_base;
  delta.changed_files = diff.changed.file_count();
  for (const auto& f : head.findings) {
    if (report::is_gated(f)) ++delta.added[f.severity];
  }
  std::multiset<std::string> remaining;
  for (const auto& f : head.findings) {
    if (!f.suppressed) remaining.insert(f.fingerprint);
  }
  for (const auto& f : base.findings) {
    if (f.suppressed) continue;
    if (auto it = remaining.find(f.fingerprint); it != remaining.end()) {
      remaining.erase(it);
      continue;
    }
    ++delta.removed[f.severity];
    delta.removed_findings.push_back(report::RecordedFinding{f.fingerprint, f.rule_id, f.path, f.at.line, f.message});
  }
  if (base.recommendation) {
    delta.base_verdict = base.recommendation->verdict;
    delta.base_readiness = base.recommendation->readiness;
  }
  return delta;
}

void record_decision(report::Report& report, const GateResult& result, bool criteria_given) {
  if (!report.gate) report.gate.emplace();
  report.gate->criteria_given = criteria_given;
  report.gate->status = result.status;
  report.gate->reasons = result.reasons;
}

}  // namespace tr2audit::gate
