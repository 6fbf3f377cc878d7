// The HTML report: one self-contained page (inline CSS, SVG and JS; no network, no external
// fonts). The overview (gauge, verdict, reasons, flip), charts by category and by directory, a
// sortable/filterable findings table built by script from JSON embedded in a
// <script type="application/json"> element, the plan, operators, training setup and problems.
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

Json findings_data(const Report& report) {
  Json findings = Json::array();
  for (const auto& f : report.findings) {
    findings.push_back(Json{{"id", f.id},
                            {"rule_id", f.rule_id},
                            {"severity", std::string(to_string(f.severity))},
                            {"category", std::string(to_string(f.category))},
                            {"confidence", std::string(to_string(f.confidence))},
                            {"message", f.message},
                            {"path", f.path},
                            {"line", f.at.line},
                            {"column", f.at.column},
                            {"snippet", f.snippet},
                            {"function", f.function},
                            {"suppressed", f.suppressed ? Json(f.suppressed->reason) : Json(false)}});
  }
  return Json{{"findings", findings}};
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
      << html::bar_chart_svg("By category", categories) << html::bar_chart_svg("By directory", dirs)
      << "</div></section>";
}

void render_findings(std::ostream& out) {  // rows come from the embedded JSON, filled by the script
  out << "<section id=\"findings-section\"><h2>Findings</h2><div class=\"filters\">"
      << "<input type=\"search\" id=\"filter-text\" placeholder=\"Filter by text, rule, path\" aria-label=\"Filter\">"
      << "<select id=\"filter-severity\" aria-label=\"Severity\"><option value=\"\">All severities</option>";
  for (Severity s : k_all_severities) out << "<option>" << to_string(s) << "</option>";
  out << "</select><select id=\"filter-category\" aria-label=\"Category\"><option value=\"\">All categories</option>";
  for (Category c : k_all_categories) out << "<option>" << to_string(c) << "</option>";
  out << "</select><label><input type=\"checkbox\" id=\"filter-suppressed\"> show suppressed</label>"
      << "<span id=\"findings-shown\" class=\"muted\"></span></div>"
      << "<table id=\"findings\"><thead><tr><th data-key=\"severity\">Severity</th><th "
         "data-key=\"category\">Category</th>"
      << "<th data-key=\"rule_id\">Rule</th><th data-key=\"message\">Message</th><th "
         "data-key=\"location\">Location</th>"
      << "<th>Code</th></tr></thead><tbody></tbody></table></section>";
}

void render_plan(const Report& report, std::ostream& out) {
  if (!report.recommendation || report.recommendation->plan.empty()) return;
  out << "<section id=\"plan\"><h2>Migration plan</h2><ol class=\"plan\">";
  for (const auto& step : report.recommendation->plan) {
    out << "<li><strong>" << escape(step.step) << "</strong>";
    if (!step.why.empty()) out << "<br><span class=\"muted\">" << escape(step.why) << "</span>";
    if (!step.locations.empty()) {
      out << "<br>at ";
      for (std::size_t i = 0; i < step.locations.size(); ++i)
        out << (i ? ", " : "") << "<code>" << escape(step.locations[i]) << "</code>";
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

void render_html(const Report& report, const RenderOptions& /*options*/, std::ostream& out) {
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
  render_charts(report, out);
  render_findings(out);
  render_plan(report, out);
  render_operators(report.operators, out);
  render_setup(report.setup, out);
  render_problems(report, out);
  out << "</main>\n<script type=\"application/json\" id=\"tr2audit-data\">" << script_safe_json(findings_data(report))
      << "</script>\n<script>" << html::script() << "</script>\n</body></html>\n";
}

}  // namespace tr2audit::report
