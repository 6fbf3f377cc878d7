#include "tr2audit/gate/outcome.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

namespace tr2audit::gate {
namespace {

using Json = nlohmann::ordered_json;

std::string status_name(GateStatus status) {
  switch (status) {
    case GateStatus::passed:
      return "passed";
    case GateStatus::failed:
      return "failed";
    case GateStatus::incomplete:
      return "incomplete";
  }
  return "";
}

Json by_severity(const std::map<Severity, std::uint32_t>& counts) {
  Json out = Json::object();
  for (Severity s : k_all_severities) out[std::string(to_string(s))] = counts.count(s) ? counts.at(s) : 0;
  return out;
}

/// "2 blockers, 1 high" (severities with a count, most severe first) or "nothing".
std::string count_phrase(const std::map<Severity, std::uint32_t>& counts) {
  std::string out;
  for (Severity s : k_all_severities) {
    const std::uint32_t n = counts.count(s) ? counts.at(s) : 0;
    if (n == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(to_string(s)) +
           (n > 1 && s == Severity::blocker ? "s" : "") + (n > 1 && s != Severity::blocker ? " findings" : "");
  }
  return out.empty() ? "nothing" : out;
}

Json entry_json(const BaselineEntry& e) {
  return Json{{"fingerprint", e.fingerprint},
              {"rule_id", e.rule_id},
              {"path", e.path},
              {"line", e.line},
              {"message", e.message}};
}

Json delta_json(const DiffDelta& d, const report::Report& report) {
  Json removed = Json::array();
  for (const auto& f : d.removed_findings)
    removed.push_back(entry_json(BaselineEntry{f.fingerprint, f.rule_id, f.path, f.at.line, f.message}));
  Json readiness = nullptr;
  if (d.base_recommendation && report.recommendation) {
    readiness = Json{{"base", d.base_recommendation->readiness},
                     {"head", report.recommendation->readiness},
                     {"base_verdict", std::string(score::to_string(d.base_recommendation->verdict))},
                     {"head_verdict", std::string(score::to_string(report.recommendation->verdict))}};
  }
  return Json{{"base", d.ref},
              {"merge_base", d.merge_base},
              {"changed_files", d.changed_files},
              {"added", by_severity(d.added)},
              {"removed", by_severity(d.removed)},
              {"removed_findings", removed},
              {"readiness", readiness}};
}

}  // namespace

std::vector<bool> gated_findings(const report::Report& report, const BaselineComparison* baseline,
                                 const ChangedLines* changed) {
  std::vector<bool> gated(report.findings.size(), true);
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const auto& f = report.findings[i];
    if (f.suppressed) gated[i] = false;
    if (baseline && baseline->states[i] != BaselineState::new_finding) gated[i] = false;
    if (changed && !changed->contains(f.path, f.at.line)) gated[i] = false;
  }
  return gated;
}

DiffDelta diff_delta(const report::Report& head, const std::vector<bool>& gated, const report::Report& base,
                     const DiffContext& diff) {
  DiffDelta delta;
  delta.ref = diff.ref;
  delta.merge_base = diff.merge_base;
  delta.changed_files = diff.changed.file_count();
  for (std::size_t i = 0; i < head.findings.size(); ++i) {
    if (gated[i]) ++delta.added[head.findings[i].severity];
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
    delta.removed_findings.push_back(f);
  }
  delta.base_recommendation = base.recommendation;
  return delta;
}

report::Report gated_view(const report::Report& report, const std::vector<bool>& gated) {
  report::Report view = report;
  view.findings.clear();
  std::set<std::string> fired;
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    if (!gated[i] && !report.findings[i].suppressed) continue;
    view.findings.push_back(report.findings[i]);
    fired.insert(report.findings[i].rule_id);
  }
  std::erase_if(view.rules, [&](const report::RuleInfo& r) { return !fired.count(r.id); });
  return view;
}

std::string annotate_json(const std::string& json_text, const report::Report& report, const GateOutcome& outcome) {
  const bool limited = report.scan.findings_capped > 0 || report.scan.files_over_facts_budget > 0;
  if (!limited && !outcome.criteria_given && !outcome.baseline && !outcome.diff && outcome.result.reasons.empty())
    return json_text;
  Json document = Json::parse(json_text);
  if (limited) {  // additive keys, present only when a cap of pipeline/limits was hit
    document["scan"]["findings_capped"] = report.scan.findings_capped;
    document["scan"]["files_over_facts_budget"] = report.scan.files_over_facts_budget;
  }
  Json& findings = document["findings"];
  for (std::size_t i = 0; i < findings.size() && i < report.findings.size(); ++i) {
    if (outcome.baseline) {
      const std::string_view state = to_string(outcome.baseline->states[i]);
      findings[i]["baseline"] = state.empty() ? Json(nullptr) : Json(std::string(state));
    }
    if (outcome.diff)
      findings[i]["in_diff"] = outcome.diff->changed.contains(report.findings[i].path, report.findings[i].at.line);
  }
  if (outcome.baseline) {
    Json fixed = Json::array();
    for (const auto& e : outcome.baseline->fixed) fixed.push_back(entry_json(e));
    document["baseline"] = Json{{"file", outcome.baseline_file},
                                {"new", outcome.baseline->new_count},
                                {"fixed", fixed},
                                {"unchanged", outcome.baseline->unchanged_count}};
  }
  if (outcome.delta) document["diff"] = delta_json(*outcome.delta, report);
  document["gate"] = Json{{"status", status_name(outcome.result.status)},
                          {"gated_findings", std::count(outcome.gated.begin(), outcome.gated.end(), true)},
                          {"reasons", outcome.result.reasons}};
  return document.dump(2) + "\n";
}

void render_gate_text(const report::Report& report, const GateOutcome& outcome, std::ostream& out) {
  if (!outcome.criteria_given && !outcome.baseline && !outcome.delta && outcome.result.reasons.empty()) return;
  out << "\n";
  if (outcome.baseline) {
    const auto& b = *outcome.baseline;
    out << "Baseline " << outcome.baseline_file << ": " << b.new_count << " new, " << b.unchanged_count
        << " unchanged, " << b.fixed.size() << " fixed\n";
    for (const auto& e : b.fixed)
      out << "  fixed: " << e.path << ":" << e.line << " " << e.rule_id << " " << e.message << "\n";
  }
  if (outcome.delta) {
    const DiffDelta& d = *outcome.delta;
    out << "Changes since " << d.ref << " (merge base " << d.merge_base.substr(0, 12) << "): " << d.changed_files
        << " file" << (d.changed_files == 1 ? "" : "s") << " changed\n";
    out << "  this change adds " << count_phrase(d.added) << " and removes " << count_phrase(d.removed) << "\n";
    if (d.base_recommendation && report.recommendation) {
      out << "  readiness " << d.base_recommendation->readiness << " ("
          << score::to_string(d.base_recommendation->verdict) << ") at the merge base -> "
          << report.recommendation->readiness << " (" << score::to_string(report.recommendation->verdict) << ") now\n";
    } else {
      out << "  readiness delta: not available (the report has no recommendation)\n";
    }
  }
  if (!outcome.criteria_given && outcome.result.status == GateStatus::passed) {
    out << "Gate: none (give --fail-on SEVERITY|VERDICT or --min-readiness to gate)\n";
    return;
  }
  out << "Gate: " << status_name(outcome.result.status) << "\n";
  for (const auto& reason : outcome.result.reasons) out << "  " << reason << "\n";
}

void render_gate_markdown(const report::Report& report, const GateOutcome& outcome, std::ostream& out) {
  if (!outcome.baseline && !outcome.delta && !outcome.criteria_given) return;
  out << "\n### What this change does\n\n";
  if (outcome.baseline) {
    const auto& b = *outcome.baseline;
    out << "- Against the baseline: **" << b.new_count << " new**, " << b.unchanged_count << " unchanged, **"
        << b.fixed.size() << " fixed**\n";
    for (const auto& e : b.fixed)
      out << "  - fixed: `" << e.path << ":" << e.line << "` " << e.rule_id << " - " << e.message << "\n";
  }
  if (outcome.delta) {
    const DiffDelta& d = *outcome.delta;
    out << "- Since `" << d.ref << "`: this change adds " << count_phrase(d.added) << " and removes "
        << count_phrase(d.removed) << "\n";
    if (d.base_recommendation && report.recommendation)
      out << "- Readiness " << d.base_recommendation->readiness << " ("
          << score::to_string(d.base_recommendation->verdict) << ") at the merge base -> "
          << report.recommendation->readiness << " (" << score::to_string(report.recommendation->verdict) << ") now\n";
  }
  if (outcome.criteria_given) {
    out << "- Gate: **" << status_name(outcome.result.status) << "**\n";
    for (const auto& reason : outcome.result.reasons) out << "  - " << reason << "\n";
  }
}

}  // namespace tr2audit::gate
