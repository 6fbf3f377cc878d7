// The HTML report: one self-contained page (inline CSS, SVG and JS; no network, no external
// fonts). The overview (gauge, verdict, reasons, flip), the findings the verdict rests on (drivers),
// the gate section, the plan, charts by category and by directory, then the sortable/filterable table
// of all findings, built by script from the JSON report's finding objects embedded in a
// <script type="application/json"> element; operators, training setup and problems.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "html_assets.hpp"
#include "renderers.hpp"

namespace tr2audit::report {
namespace {

using html::escape;
using Json = nlohmann::ordered_json;

std::string_view verdict_tone(score::Verdict verdict) {
  switch (verdict) {
    case score::Verdict::gpu_keep:
      return "#cf222e";
    case score::Verdict::dual_run:
      return "#bf8700";
    case score::Verdict::trainium2_pilot:
      return "#1a7f37";
  }
  return "#57606a";
}

/// JSON for a <script> element: '<', '>' and '&' become \u escapes, so "</script>" and "<!--"
/// inside strings cannot end or alter the element (they are only legal inside JSON strings).
std::string script_safe_json(const Json& data) {
  const std::string text = data.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

/// The embedded data: the findings in the JSON report's shape (finding_json), gate keys included.
Json findings_data(const Report& report) {
  Json findings = Json::array();
  for (const auto& f : report.findings) findings.push_back(finding_json(report, f));
  return Json{{"findings", findings}, {"gate", report.gate.has_value()}, {"filtered", filters_findings(report)}};
}

std::string code_link(const Report& report, const RenderOptions& options, std::string_view path, std::uint32_t line) {
  std::string label = repo_path(report, path);
  if (line > 0) label += ":" + std::to_string(line);
  return "<a class=\"loc\" href=\"" + escape(code_url(report, options, path, line)) + "\"><code>" + escape(label) +
         "</code></a>";
}

/// A finding's place as a link; a notebook's names its cell and line and links the notebook.
std::string finding_link(const Report& report, const RenderOptions& options, const rules::Finding& f) {
  if (f.cell.cell == 0) return code_link(report, options, f.path, f.at.line);
  return "<a class=\"loc\" href=\"" + escape(code_url(report, options, f.path, 0)) + "\"><code>" +
         escape(repo_path(report, f.path) + ":cell " + std::to_string(f.cell.cell) + ":" +
                std::to_string(f.cell.line)) +
         "</code></a>";
}

/// The findings the verdict rests on, one row per rule, before everything else.
void render_drivers(const Report& report, const RenderOptions& options, std::ostream& out) {
  const std::vector<Driver> list = drivers(report);
  if (list.empty()) return;
  out << "<section id=\"drivers\"><h2>What decides the verdict</h2><table class=\"drivers\"><thead><tr>"
      << "<th>Severity</th><th>Finding</th><th>Count</th><th>Where</th></tr></thead><tbody>";
  for (const Driver& d : list) {
    out << "<tr><td><span class=\"sev " << to_string(d.severity) << "\">" << to_string(d.severity) << "</span></td><td>"
        << escape(d.cited->message) << " <code>" << escape(d.rule_id) << "</code>";
    if (!d.cited->reached_from.empty())
      out << "<br><span class=\"muted\">via " << escape(d.cited->reached_from) << "</span>";
    out << "</td><td>" << d.findings.size() << "</td><td>";
    const std::vector<const rules::Finding*> places = distinct_places(d);
    for (std::size_t k = 0; k < places.size() && k < 3; ++k)
      out << (k ? ", " : "") << finding_link(report, options, *places[k]);
    if (places.size() > 3) out << ", +" << places.size() - 3 << " more";
    out << "</td></tr>";
  }
  out << "</tbody></table></section>";
}

/// The gate section (report/gate.cpp's content).
void render_gate(const Report& report, std::ostream& out) {
  const std::vector<GateLine> lines = gate_lines(report);
  if (lines.empty()) return;
  out << "<section id=\"gate\"><h2>What this change does</h2><ul class=\"gate\">";
  for (const GateLine& line : lines) {
    out << (line.indent > 0 ? "<li class=\"detail\">" : "<li>");
    for (const Phrase& p : line.phrases) {
      if (p.kind == Phrase::Kind::strong) out << "<strong>" << escape(p.text) << "</strong>";
      if (p.kind == Phrase::Kind::code) out << "<code>" << escape(p.text) << "</code>";
      if (p.kind == Phrase::Kind::plain) out << escape(p.text);
    }
    out << "</li>";
  }
  out << "</ul></section>";
}

void render_overview(const Report& report, std::ostream& out) {
  out << "<section class=\"overview\" id=\"overview\">";
  if (report.recommendation) {
    const score::Assessment& a = *report.recommendation;
    out << html::gauge_svg(a.readiness, verdict_tone(a.verdict), "readiness / 100");
    out << "<div><div class=\"verdict " << score::to_string(a.verdict) << "\">" << score::to_string(a.verdict)
        << "</div><p>Confidence: <strong>" << to_string(a.confidence) << "</strong></p>";
    if (!a.reasons.empty()) {
      out << "<h2>Why</h2><ul>";
      for (const auto& r : a.reasons) {
        out << "<li>" << escape(r.text);
        for (const auto& id : r.finding_ids)
          out << " <a href=\"#finding-" << escape(id) << "\">" << escape(id) << "</a>";
        out << "</li>";
      }
      out << "</ul>";
    }
    if (!a.flip.empty()) {
      out << "<h2>What would change the verdict</h2><ul>";
      for (const auto& flip : a.flip) out << "<li>" << escape(flip) << "</li>";
      out << "</ul>";
    }
    out << "</div>";
  } else {
    out << "<p class=\"muted\">No verdict: the scan was not scored.</p>";
  }
  out << "</section>";
}

void render_charts(const Report& report, std::ostream& out) {
  std::vector<std::pair<std::string, std::uint32_t>> categories;
  for (const auto& [category, count] : count_by_category(report)) {
    if (count) categories.emplace_back(category, count);
  }
  std::map<std::string, std::uint32_t> by_dir;
  for (const auto& f : report.findings) {
    if (f.suppressed) continue;
    const std::size_t slash = f.path.rfind('/');
    ++by_dir[slash == std::string::npos ? std::string(".") : f.path.substr(0, slash)];
  }
  std::vector<std::pair<std::string, std::uint32_t>> dirs(by_dir.begin(), by_dir.end());
  std::stable_sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (dirs.size() > 12) dirs.resize(12);
  out << "<section id=\"charts\"><h2>Findings by category and by directory</h2><div class=\"charts\">"
      << html::bar_chart("By category", categories) << html::bar_chart("By directory", dirs) << "</div></section>";
}

void render_findings(const Report& report, std::ostream& out) {  // rows come from the embedded JSON
  out << "<section id=\"findings-section\"><h2>All findings</h2><div class=\"filters\">"
      << "<input type=\"search\" id=\"filter-text\" placeholder=\"Filter by text, rule, path\" aria-label=\"Filter\">"
      << "<select id=\"filter-severity\" aria-label=\"Severity\"><option value=\"\">All severities</option>";
  for (Severity s : k_all_severities) out << "<option>" << to_string(s) << "</option>";
  out << "</select><select id=\"filter-category\" aria-label=\"Category\"><option value=\"\">All categories</option>";
  for (Category c : k_all_categories) out << "<option>" << to_string(c) << "</option>";
  out << "</select>";
  if (report.gate) {
    out << "<select id=\"filter-gate\" aria-label=\"Gate\"><option value=\"\">Any gate state</option>";
    for (GateState g : {GateState::gated, GateState::baselined, GateState::outside_diff, GateState::suppressed})
      out << "<option" << (g == GateState::gated && filters_findings(report) ? " selected" : "") << ">" << to_string(g)
          << "</option>";
    out << "</select>";
  }
  out << "<label><input type=\"checkbox\" id=\"filter-suppressed\"> show suppressed</label>"
      << "<span id=\"findings-shown\" class=\"muted\"></span></div>"
      << "<table id=\"findings\"><colgroup><col class=\"c-sev\"><col class=\"c-rule\"><col class=\"c-msg\">"
      << "<col class=\"c-loc\"><col class=\"c-code\">" << (report.gate ? "<col class=\"c-gate\">" : "")
      << "</colgroup><thead><tr><th data-key=\"severity\">Severity</th><th data-key=\"rule_id\">Rule</th>"
      << "<th data-key=\"message\">Message</th><th data-key=\"location\">Location</th><th>Code</th>"
      << (report.gate ? "<th data-key=\"gate\">Gate</th>" : "") << "</tr></thead><tbody></tbody></table></section>";
}

void render_plan(const Report& report, const RenderOptions& options, std::ostream& out) {
  if (!report.recommendation || report.recommendation->plan.empty()) return;
  out << "<section id=\"plan\"><h2>Migration plan</h2><ol class=\"plan\">";
  for (const auto& step : report.recommendation->plan) {
    out << "<li><strong>" << escape(step.step) << "</strong>";
    if (!step.why.empty()) out << "<br><span class=\"muted\">" << escape(step.why) << "</span>";
    if (!step.locations.empty()) {
      out << "<br>at ";
      for (std::size_t i = 0; i < step.locations.size() && i < 5; ++i) {
        const auto [path, line] = split_location(step.locations[i]);
        out << (i ? ", " : "")
            << (line ? code_link(report, options, path, line) : "<code>" + escape(step.locations[i]) + "</code>");
      }
      if (step.locations.size() > 5) out << ", +" << step.locations.size() - 5 << " more";
    }
    for (const auto& probe : step.probes) out << "<br>probe: " << escape(probe);
    out << "</li>";
  }
  out << "</ol></section>";
}

void render_operators(const OperatorSummary& ops, std::ostream& out) {
  if (ops.distinct == 0) return;
  out << "<section id=\"operators\"><h2>Operators</h2><p>" << ops.distinct << " distinct: " << ops.supported
      << " supported, " << ops.caveat << " caveat, " << ops.replace << " replace, " << ops.unsupported
      << " unsupported, " << ops.unknown << " unknown";
  if (!ops.neuron_sdk.empty())
    out << " <span class=\"muted\">(Neuron SDK " << escape(ops.neuron_sdk) << ", checked " << escape(ops.checked)
        << ")</span>";
  out << "</p><table><thead><tr><th>Operator</th><th>Status</th><th>Calls</th><th>First "
         "use</th><th>Note</th></tr></thead><tbody>";
  for (const auto& op : ops.ops) {
    out << "<tr><td><code>" << escape(op.name) << "</code></td><td>" << escape(op.status) << "</td><td>" << op.calls
        << "</td><td>" << escape(op.first_location) << "</td><td>" << escape(op.note);
    if (!op.alternative.empty()) out << " <em>Instead: " << escape(op.alternative) << "</em>";
    out << "</td></tr>";
  }
  out << "</tbody></table></section>";
}

void render_setup(const TrainingSetup& s, std::ostream& out) {
  const std::pair<std::string_view, const std::vector<SetupFact>*> rows[] = {
      {"Fine-tuning", &s.fine_tuning}, {"Model family", &s.model_family},   {"Precision", &s.precision},
      {"Parallelism", &s.parallelism}, {"Checkpointing", &s.checkpointing}, {"Frameworks", &s.frameworks}};
  std::string body;
  for (const auto& [name, facts] : rows) {
    if (facts->empty()) continue;
    body += "<tr><th>" + std::string(name) + "</th><td>";
    for (std::size_t i = 0; i < facts->size(); ++i) {
      body += (i ? "; " : "") + escape((*facts)[i].value);
      for (const auto& evidence : (*facts)[i].evidence) body += " <code>" + escape(evidence) + "</code>";
    }
    body += "</td></tr>";
  }
  if (!body.empty())
    out << "<section id=\"setup\"><h2>Training setup</h2><table><tbody>" << body << "</tbody></table></section>";
}

void render_problems(const Report& report, std::ostream& out) {
  if (report.problems.empty()) return;
  out << "<section id=\"problems\"><h2>Problems (the scan went on)</h2><ul>";
  for (const auto& p : report.problems)
    out << "<li><code>" << to_string(p.kind) << "</code> " << escape(format_problem(p)) << "</li>";
  out << "</ul></section>";
}

}  // namespace

void render_html(const Report& report, const RenderOptions& options, std::ostream& out) {
  const std::string counts = severity_counts_text(report);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      << "<title>tr2audit: " << escape(report.scan.root) << "</title><style>" << html::stylesheet()
      << "</style></head>\n"
      << "<body><header><h1>tr2audit report: " << escape(report.scan.root) << "</h1><p>Target <strong>"
      << to_string(report.target) << "</strong> · " << report.scan.files_scanned << " files, " << report.scan.lines
      << " lines · " << findings_by_severity(report).size() << " findings"
      << (counts.empty() ? "" : " (" + counts + ")") << " · tr2audit " << escape(report.run.tool_version) << " · "
      << escape(report.run.started_at) << "</p></header>\n"
      << "<main><pre id=\"console-errors\" hidden></pre>";
  render_overview(report, out);
  render_drivers(report, options, out);
  render_gate(report, out);
  render_plan(report, options, out);
  render_charts(report, out);
  render_findings(report, out);
  render_operators(report.operators, out);
  render_setup(report.setup, out);
  render_problems(report, out);
  out << "</main>\n<script type=\"application/json\" id=\"tr2audit-data\">" << script_safe_json(findings_data(report))
      << "</script>\n<script>" << html::script() << "</script>\n</body></html>\n";
}

}  // namespace tr2audit::report
