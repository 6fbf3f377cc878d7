// The gate's part of the report model: names of its states, each finding's state and why, the view
// the human formats list (what the gate looks at, plus suppressions), and the gate section's content,
// which the text and Markdown renderers format (one content, two spellings).
#include "tr2audit/report/gate.hpp"

#include <set>

#include "renderers.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::report {
namespace {

constexpr std::size_t k_max_fixed_listed = 20;

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

GateLine line(int indent, std::vector<Phrase> phrases) {
  return GateLine{indent, std::move(phrases)};
}

Phrase plain(std::string text) {
  return Phrase{Phrase::Kind::plain, std::move(text)};
}
Phrase strong(std::string text) {
  return Phrase{Phrase::Kind::strong, std::move(text)};
}
Phrase code(std::string text) {
  return Phrase{Phrase::Kind::code, std::move(text)};
}

void baseline_lines(const BaselineSummary& b, std::vector<GateLine>& out) {
  out.push_back(line(0, {plain("Baseline "), code(b.file), plain(": "), strong(std::to_string(b.new_count) + " new"),
                         plain(", " + std::to_string(b.unchanged_count) + " unchanged, "),
                         strong(std::to_string(b.fixed.size()) + " fixed")}));
  for (std::size_t i = 0; i < b.fixed.size() && i < k_max_fixed_listed; ++i) {
    const RecordedFinding& e = b.fixed[i];
    out.push_back(line(
        1, {plain("fixed: "), code(e.path + ":" + std::to_string(e.line)), plain(" " + e.rule_id + " " + e.message)}));
  }
  if (b.fixed.size() > k_max_fixed_listed)
    out.push_back(line(1, {plain("+" + std::to_string(b.fixed.size() - k_max_fixed_listed) +
                                 " more fixed (the JSON report lists them all)")}));
}

void diff_lines(const Report& report, const DiffSummary& d, std::vector<GateLine>& out) {
  out.push_back(line(
      0, {plain("Changes since "), code(d.ref), plain(" (merge base "), code(d.merge_base.substr(0, 12)),
          plain("): " + std::to_string(d.changed_files) + " file" + (d.changed_files == 1 ? "" : "s") + " changed")}));
  out.push_back(
      line(1, {plain("this change adds " + count_phrase(d.added) + " and removes " + count_phrase(d.removed))}));
  if (d.base_verdict && report.recommendation) {
    out.push_back(line(1, {plain("readiness " + std::to_string(d.base_readiness) + " (" +
                                 std::string(score::to_string(*d.base_verdict)) + ") at the merge base -> " +
                                 std::to_string(report.recommendation->readiness) + " (" +
                                 std::string(score::to_string(report.recommendation->verdict)) + ") now")}));
  } else {
    out.push_back(line(1, {plain("readiness delta: not available (the report has no recommendation)")}));
  }
}

}  // namespace

std::string_view to_string(GateStatus status) {
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

std::string_view to_string(GateState state) {
  switch (state) {
    case GateState::gated:
      return "gated";
    case GateState::suppressed:
      return "suppressed";
    case GateState::baselined:
      return "baseline";
    case GateState::outside_diff:
      return "outside-diff";
  }
  return "";
}

std::string_view to_string(rules::BaselineState state) {
  switch (state) {
    case rules::BaselineState::none:
      return "";
    case rules::BaselineState::new_finding:
      return "new";
    case rules::BaselineState::unchanged:
      return "unchanged";
  }
  return "";
}

GateState gate_state(const GateSummary* gate, const rules::Finding& f, std::string* why) {
  std::string reason;
  GateState state = GateState::gated;
  if (f.suppressed) {
    state = GateState::suppressed;
    reason = "suppressed inline: " + f.suppressed->reason +
             (f.suppressed->until.empty() ? "" : " (until " + f.suppressed->until + ")");
  } else if (f.gate.baseline == rules::BaselineState::unchanged) {
    state = GateState::baselined;
    reason = "recorded in the baseline" + (gate && gate->baseline ? " " + gate->baseline->file : std::string());
  } else if (f.gate.in_diff == false) {
    state = GateState::outside_diff;
    reason = "not on a line changed since " + (gate && gate->diff ? gate->diff->ref : std::string("the diff base"));
  } else if (f.gate.baseline == rules::BaselineState::new_finding || f.gate.in_diff) {
    reason = f.gate.baseline == rules::BaselineState::new_finding ? "new since the baseline" : "";
    if (f.gate.in_diff) reason += std::string(reason.empty() ? "" : ", ") + "on a changed line";
  }
  if (why) *why = std::move(reason);
  return state;
}

bool filters_findings(const Report& report) {
  return report.gate && (report.gate->baseline || report.gate->diff);
}

Report gated_view(const Report& report) {
  if (!filters_findings(report)) return report;
  Report view = report;
  view.findings.clear();
  std::set<std::string> fired;
  for (const auto& f : report.findings) {
    if (!is_gated(f) && !f.suppressed) continue;
    view.findings.push_back(f);
    fired.insert(f.rule_id);
  }
  std::erase_if(view.rules, [&](const RuleInfo& r) { return !fired.count(r.id); });
  return view;
}

std::vector<GateLine> gate_lines(const Report& report) {
  std::vector<GateLine> out;
  if (!report.gate) return out;
  const GateSummary& g = *report.gate;
  if (g.baseline) baseline_lines(*g.baseline, out);
  if (g.diff) diff_lines(report, *g.diff, out);
  if (!g.criteria_given && g.status == GateStatus::passed) {
    out.push_back(line(0, {plain("Gate: none (give --fail-on SEVERITY|VERDICT or --min-readiness to gate)")}));
    return out;
  }
  out.push_back(line(0, {plain("Gate: "), strong(std::string(to_string(g.status)))}));
  for (const auto& reason : g.reasons) out.push_back(line(1, {plain(reason)}));
  return out;
}

}  // namespace tr2audit::report
