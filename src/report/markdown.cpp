// The Markdown report, written to be posted as a pull-request comment, and always small enough for
// one (markdown_parts.hpp: every section goes through a size budget). Top to bottom: the verdict badge
// and counts; the findings the verdict rests on (the drivers); why and what would change it; what the
// change does (baseline/diff mode: the gate section and the change's own findings); a table per rule;
// then, folded into <details>, the plan, every finding (as many as fit, with a count of the rest),
// operators, training setup and problems; and where the full report is.
#include <algorithm>
#include <map>
#include <string>

#include "markdown_parts.hpp"

namespace tr2audit::report {
namespace {

using namespace markdown;

constexpr std::size_t k_top_reasons = 5;
constexpr std::size_t k_driver_locations = 3;
constexpr std::size_t k_change_rows = 50;

std::string_view verdict_emoji(score::Verdict verdict) {
  switch (verdict) {
    case score::Verdict::gpu_keep:
      return "🔴";
    case score::Verdict::dual_run:
      return "🟡";
    case score::Verdict::trainium2_pilot:
      return "🟢";
  }
  return "⚪";
}

std::string finding_row(const Report& report, const RenderOptions& options, const rules::Finding& f) {
  return "| " + std::string(severity_emoji(f.severity)) + " " + std::string(to_string(f.severity)) + " | " +
         md(clip(f.message, 300)) + " <sub>" + code(f.rule_id) + "</sub> | " + finding_link(report, options, f) +
         " |\n";
}

void head(const Report& report, Sink& out) {
  std::string text;
  if (report.recommendation) {
    const score::Assessment& a = *report.recommendation;
    text += "## " + std::string(verdict_emoji(a.verdict)) + " " + std::string(score::to_string(a.verdict)) +
            " · readiness " + std::to_string(a.readiness) + "/100\n\n";
    text += "**Confidence:** " + std::string(to_string(a.confidence)) + " · ";
  } else {
    text += "## tr2audit report\n\n";
  }
  const std::string counts = severity_counts_text(report);
  text += "**Target:** `" + std::string(to_string(report.target)) + "` · **Findings:** " +
          std::to_string(findings_by_severity(report).size()) + (counts.empty() ? "" : " (" + counts + ")") + " · " +
          std::to_string(report.scan.files_scanned) + " files scanned\n";
  out.add(text);
}

/// The drivers: one row per rule the verdict rests on, with its count and first locations.
void drivers_section(const Report& report, const RenderOptions& options, Sink& out) {
  const std::vector<Driver> list = drivers(report);
  if (list.empty()) return;
  std::vector<std::string> rows;
  for (const Driver& d : list) {
    std::string where;
    const std::vector<const rules::Finding*> places = distinct_places(d);
    for (std::size_t k = 0; k < places.size() && k < k_driver_locations; ++k)
      where += (k ? ", " : "") + finding_link(report, options, *places[k]);
    if (places.size() > k_driver_locations)
      where += ", +" + std::to_string(places.size() - k_driver_locations) + " more";
    std::string what = md(clip(d.cited->message, 300)) + " <sub>" + code(d.rule_id) + "</sub>";
    if (!d.cited->reached_from.empty()) what += "<br><sub>via " + md(clip(d.cited->reached_from, 160)) + "</sub>";
    rows.push_back("| " + std::string(severity_emoji(d.severity)) + " " + std::string(to_string(d.severity)) + " | " +
                   what + " | " + std::to_string(d.findings.size()) + " | " + where + " |\n");
  }
  out.add("\n### What decides the verdict\n\n");
  table(out, "| Severity | Finding | Count | Where |\n|---|---|---|---|\n", rows, rows.size(), "drivers", options);
}

void reasons_section(const Report& report, Sink& out) {
  if (!report.recommendation) return;
  const score::Assessment& a = *report.recommendation;
  if (!a.reasons.empty()) {
    std::string text = "\n### Why\n\n";
    for (std::size_t i = 0; i < a.reasons.size() && i < k_top_reasons; ++i)
      text += "- " + md(clip(a.reasons[i].text, 1200)) + "\n";
    out.add(text);
  }
  if (!a.flip.empty()) {
    std::string text = "\n### What would change the verdict\n\n";
    for (const auto& flip : a.flip) text += "- " + md(clip(flip, 1200)) + "\n";
    out.add(text);
  }
}

/// The gate section (report/gate.cpp's content) and, under a baseline or diff, the change's own findings.
void change_section(const Report& report, const RenderOptions& options, Sink& out) {
  const std::vector<GateLine> lines = gate_lines(report);
  if (lines.empty()) return;
  std::string text = "\n### What this change does\n\n";
  for (const GateLine& line : lines) {
    text += line.indent > 0 ? "  - " : "- ";
    for (const Phrase& p : line.phrases) {
      if (p.kind == Phrase::Kind::strong) text += "**" + md(p.text) + "**";
      if (p.kind == Phrase::Kind::code) text += code(p.text);
      if (p.kind == Phrase::Kind::plain) text += md(clip(p.text, 400));
    }
    text += "\n";
  }
  out.add(text);
  if (!filters_findings(report)) return;
  std::vector<std::string> rows;
  for (const rules::Finding* f : findings_by_severity(report)) {
    if (is_gated(*f)) rows.push_back(finding_row(report, options, *f));
  }
  if (rows.empty()) {
    out.add("\nThis change adds no finding the gate looks at.\n");
    return;
  }
  out.add("\n#### This change's findings (" + std::to_string(rows.size()) + ")\n\n");
  table(out, "| Severity | Finding | Where |\n|---|---|---|\n", rows, k_change_rows, "of this change's findings",
        options);
}

/// One row per rule with active findings: worst severity, count (and new ones under a gate), first place.
void rules_section(const Report& report, const RenderOptions& options, Sink& out) {
  struct RuleRow {
    Severity severity = Severity::info;
    std::size_t count = 0, gated = 0;
    const rules::Finding* first = nullptr;
  };
  std::map<std::string, RuleRow> by_rule;
  for (const auto& f : report.findings) {
    if (f.suppressed) continue;
    RuleRow& row = by_rule[f.rule_id];
    row.severity = std::max(row.severity, f.severity);
    ++row.count;
    row.gated += is_gated(f) ? 1 : 0;
    if (!row.first) row.first = &f;
  }
  if (by_rule.empty()) return;
  std::vector<std::pair<std::string, RuleRow>> ordered(by_rule.begin(), by_rule.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return a.second.severity != b.second.severity ? a.second.severity > b.second.severity
                                                  : a.second.count > b.second.count;
  });
  const bool gate = filters_findings(report);
  std::vector<std::string> rows;
  for (const auto& [rule, row] : ordered) {
    rows.push_back("| " + code(rule) + " | " + std::string(severity_emoji(row.severity)) + " " +
                   std::string(to_string(row.severity)) + " | " + std::to_string(row.count) +
                   (gate ? " | " + std::to_string(row.gated) : std::string()) + " | " +
                   finding_link(report, options, *row.first) + " |\n");
  }
  out.add("\n### Findings by rule\n\n");
  table(out,
        gate ? "| Rule | Severity | Findings | In this change | First at |\n|---|---|---|---|---|\n"
             : "| Rule | Severity | Findings | First at |\n|---|---|---|---|\n",
        rows, rows.size(), "rules", options);
}

void all_findings_section(const Report& report, const RenderOptions& options, Sink& out) {
  const std::vector<const rules::Finding*> findings = findings_by_severity(report);
  if (findings.empty()) {
    out.add("\nNo findings.\n");
    return;
  }
  if (!out.add("\n<details><summary>All " + std::to_string(findings.size()) + " findings</summary>\n\n")) {
    out.note("\n" + std::to_string(findings.size()) + " findings not listed here: see " + full_report(options) + ".\n");
    return;
  }
  std::vector<std::string> rows;
  rows.reserve(findings.size());
  for (const rules::Finding* f : findings) rows.push_back(finding_row(report, options, *f));
  table(out, "| Severity | Finding | Where |\n|---|---|---|\n", rows, rows.size(), "findings", options);
  out.note("\n</details>\n");
}

}  // namespace

void render_markdown(const Report& report, const RenderOptions& options, std::ostream& out) {
  Sink sink(options.link_full);
  head(report, sink);
  drivers_section(report, options, sink);
  reasons_section(report, sink);
  change_section(report, options, sink);
  rules_section(report, options, sink);
  plan_section(report, options, sink);
  all_findings_section(report, options, sink);
  operators_section(report, options, sink);
  setup_section(report, options, sink);
  problems_section(report, sink);
  std::string footer = "\n<sub>tr2audit " + md(report.run.tool_version) + " · rules " + md(report.run.rules_version);
  if (!options.link_full.empty()) footer += " · " + full_report(options);
  sink.note(footer + "</sub>\n");
  out << sink.text();
}

}  // namespace tr2audit::report
