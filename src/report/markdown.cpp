// The Markdown report, written to be posted as a pull-request comment: a verdict badge line, the
// confidence, the top reasons, what would flip the verdict and the top findings with relative
// `path:line` links; the full list, the plan, operators and training setup fold into <details>.
#include <string>

#include "renderers.hpp"

namespace tr2audit::report {
namespace {

constexpr std::size_t k_top_findings = 15;
constexpr std::size_t k_top_reasons = 5;

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

std::string_view severity_emoji(Severity severity) {
  switch (severity) {
    case Severity::blocker:
      return "⛔";
    case Severity::high:
      return "🔴";
    case Severity::medium:
      return "🟠";
    case Severity::low:
      return "🔵";
    case Severity::info:
      return "⚪";
  }
  return "⚪";
}

/// Inline text with Markdown and HTML specials escaped; newlines become spaces (table-safe).
std::string md(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
      case '*':
      case '_':
      case '`':
      case '[':
      case ']':
      case '|':
      case '#':
        out += '\\';
        out += c;
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// Code span that survives backticks in the text.
std::string code(std::string_view text) {
  std::string fence = "`";
  while (std::string_view(text).find(fence) != std::string_view::npos) fence += '`';
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  std::string out = fence + (pad ? " " : "");
  for (char c : text) out += (c == '\n' || c == '\r' || c == '|') ? (c == '|' ? '/' : ' ') : c;
  return out + (pad ? " " : "") + fence;
}

/// Link target for a report path: relative to the directory the scan ran in (the scan root is
/// prepended when it is a relative path other than "."), with the line as a #L anchor.
std::string link(const Report& report, std::string_view path, std::uint32_t line) {
  const std::string& root = report.scan.root;
  std::string target;
  if (!root.empty() && root != "." && root.front() != '/') target = root + (root.back() == '/' ? "" : "/");
  for (char c : path) target += c == ' ' ? std::string("%20") : std::string(1, c);
  if (line > 0) target += "#L" + std::to_string(line);
  std::string label(path);
  if (line > 0) label.append(":").append(std::to_string(line));
  std::string out = "[";
  out.append(code(label)).append("](").append(target).append(")");
  return out;
}

/// "path:line" evidence strings as links.
std::string location_link(const Report& report, std::string_view location) {
  const std::size_t colon = location.rfind(':');
  if (colon == std::string_view::npos) return code(location);
  std::uint32_t line = 0;
  for (char c : location.substr(colon + 1)) {
    if (c < '0' || c > '9') return code(location);
    line = line * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return link(report, location.substr(0, colon), line);
}

void findings_table(const Report& report, const std::vector<const rules::Finding*>& findings, std::size_t max,
                    std::ostream& out) {
  out << "| Severity | Finding | Where |\n|---|---|---|\n";
  for (std::size_t i = 0; i < findings.size() && i < max; ++i) {
    const rules::Finding& f = *findings[i];
    out << "| " << severity_emoji(f.severity) << " " << to_string(f.severity) << " | " << md(f.message) << " <sub>"
        << code(f.rule_id) << "</sub> | " << link(report, f.path, f.at.line) << " |\n";
  }
}

void render_head(const Report& report, std::ostream& out) {
  if (report.recommendation) {
    const score::Assessment& a = *report.recommendation;
    out << "## " << verdict_emoji(a.verdict) << " " << score::to_string(a.verdict) << " · readiness " << a.readiness
        << "/100\n\n";
    out << "**Confidence:** " << to_string(a.confidence) << " · ";
  } else {
    out << "## tr2audit report\n\n";
  }
  const std::string counts = severity_counts_text(report);
  out << "**Target:** `" << to_string(report.target) << "` · **Findings:** " << findings_by_severity(report).size()
      << (counts.empty() ? "" : " (" + counts + ")") << " · " << report.scan.files_scanned << " files scanned\n";
}

void render_reasons(const Report& report, std::ostream& out) {
  if (!report.recommendation) return;
  const score::Assessment& a = *report.recommendation;
  if (!a.reasons.empty()) {
    out << "\n### Why\n\n";
    for (std::size_t i = 0; i < a.reasons.size() && i < k_top_reasons; ++i) {
      out << "- " << md(a.reasons[i].text);
      if (!a.reasons[i].finding_ids.empty()) {
        out << " <sub>";
        for (std::size_t k = 0; k < a.reasons[i].finding_ids.size(); ++k)
          out << (k ? ", " : "") << a.reasons[i].finding_ids[k];
        out << "</sub>";
      }
      out << "\n";
    }
  }
  if (!a.flip.empty()) {
    out << "\n### What would change the verdict\n\n";
    for (const auto& flip : a.flip) out << "- " << md(flip) << "\n";
  }
}

void render_plan(const Report& report, std::ostream& out) {
  if (!report.recommendation || report.recommendation->plan.empty()) return;
  const auto& plan = report.recommendation->plan;
  out << "\n<details><summary>Migration plan (" << plan.size() << " step" << (plan.size() == 1 ? "" : "s")
      << ")</summary>\n\n";
  for (std::size_t i = 0; i < plan.size(); ++i) {
    out << i + 1 << ". **" << md(plan[i].step) << "**";
    if (!plan[i].why.empty()) out << " — " << md(plan[i].why);
    out << "\n";
    if (!plan[i].locations.empty()) {
      out << "   at ";
      for (std::size_t k = 0; k < plan[i].locations.size() && k < 8; ++k) {
        out << (k ? ", " : "") << location_link(report, plan[i].locations[k]);
      }
      if (plan[i].locations.size() > 8) out << ", +" << plan[i].locations.size() - 8 << " more";
      out << "\n";
    }
    for (const auto& probe : plan[i].probes) out << "   - probe: " << md(probe) << "\n";
  }
  out << "\n</details>\n";
}

void render_operators(const Report& report, std::ostream& out) {
  const OperatorSummary& ops = report.operators;
  if (ops.distinct == 0) return;
  out << "\n<details><summary>Operators: " << ops.distinct << " distinct, " << ops.unsupported << " unsupported, "
      << ops.replace << " to replace, " << ops.caveat << " with caveats</summary>\n\n";
  if (!ops.neuron_sdk.empty())
    out << "Checked against Neuron SDK " << md(ops.neuron_sdk) << " (" << md(ops.checked) << ").\n\n";
  out << "| Operator | Status | Calls | First use | Note |\n|---|---|---|---|---|\n";
  for (const auto& op : ops.ops) {
    if (op.status == "supported") continue;
    out << "| " << code(op.name) << " | " << op.status << " | " << op.calls << " | "
        << (op.first_location.empty() ? "" : location_link(report, op.first_location)) << " | " << md(op.note)
        << (op.alternative.empty() ? "" : " Instead: " + md(op.alternative)) << " |\n";
  }
  out << "\n</details>\n";
}

void render_setup(const Report& report, std::ostream& out) {
  const TrainingSetup& s = report.setup;
  const std::pair<std::string_view, const std::vector<SetupFact>*> rows[] = {
      {"Fine-tuning", &s.fine_tuning}, {"Model family", &s.model_family},   {"Precision", &s.precision},
      {"Parallelism", &s.parallelism}, {"Checkpointing", &s.checkpointing}, {"Frameworks", &s.frameworks}};
  std::string body;
  for (const auto& [name, facts] : rows) {
    if (facts->empty()) continue;
    body += "| " + std::string(name) + " | ";
    for (std::size_t i = 0; i < facts->size(); ++i) {
      body += (i ? "; " : "") + md((*facts)[i].value);
      for (std::size_t k = 0; k < (*facts)[i].evidence.size(); ++k)
        body += (k ? ", " : " (") + location_link(report, (*facts)[i].evidence[k]) +
                (k + 1 == (*facts)[i].evidence.size() ? ")" : "");
    }
    body += " |\n";
  }
  if (body.empty()) return;
  out << "\n<details><summary>Training setup</summary>\n\n| Aspect | Detected |\n|---|---|\n"
      << body << "\n</details>\n";
}

}  // namespace

void render_markdown(const Report& report, const RenderOptions& /*options*/, std::ostream& out) {
  render_head(report, out);
  render_reasons(report, out);
  const std::vector<const rules::Finding*> findings = findings_by_severity(report);
  if (!findings.empty()) {
    out << "\n### Top findings\n\n";
    findings_table(report, findings, k_top_findings, out);
    out << "\n<details><summary>All " << findings.size() << " findings</summary>\n\n";
    findings_table(report, findings, findings.size(), out);
    out << "\n</details>\n";
  } else {
    out << "\nNo findings.\n";
  }
  render_plan(report, out);
  render_operators(report, out);
  render_setup(report, out);
  if (!report.problems.empty()) {
    out << "\n<details><summary>" << report.problems.size() << " problem" << (report.problems.size() == 1 ? "" : "s")
        << " (the scan went on)</summary>\n\n";
    for (const auto& p : report.problems)
      out << "- " << code(to_string(p.kind)) << " " << md(format_problem(p)) << "\n";
    out << "\n</details>\n";
  }
  out << "\n<sub>tr2audit " << md(report.run.tool_version) << " · rules " << md(report.run.rules_version) << "</sub>\n";
}

}  // namespace tr2audit::report
