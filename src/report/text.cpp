// The human report: the verdict first (verdict, readiness, confidence), then why, what would flip
// it, the plan, operators and training setup, then findings grouped by file with the code line and
// a caret under the finding's column, then problems. Colour only when asked (the CLI decides from
// the TTY, NO_COLOR and --no-color); --quiet keeps the verdict line and the counts.
#include "tr2audit/core/text.hpp"

#include <algorithm>
#include <string>

#include "renderers.hpp"
#include "text_style.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::report {
namespace {

using text::Palette;

/// The caret line under a snippet: the snippet is the source line with leading whitespace trimmed,
/// so the caret goes to `snippet_column` (the finding's column minus the trimmed indentation) and
/// spans the finding's columns on a one-line span. Tabs before the caret are copied so it lines up.
std::string caret_line(const rules::Finding& f) {
  if (f.snippet_column == 0) return {};
  std::string pad;
  std::uint32_t code_points = 0;
  std::size_t i = 0;
  for (; i < f.snippet.size() && code_points + 1 < f.snippet_column; ++i) {
    const auto byte = static_cast<unsigned char>(f.snippet[i]);
    if ((byte & 0xC0) == 0x80) continue;
    pad.push_back(byte == '\t' ? '\t' : ' ');
    ++code_points;
  }
  if (code_points + 1 < f.snippet_column) return {};  // the column lies past the (capped) snippet
  const std::uint32_t remaining = count_code_points(std::string_view(f.snippet).substr(i));
  std::uint32_t width = 1;
  if (f.at.end_line == f.at.line && f.at.end_column > f.at.column) width = f.at.end_column - f.at.column;
  width = std::max<std::uint32_t>(1, std::min(width, remaining));
  return pad + std::string(width, '^');
}

void render_header(const Report& report, const Palette& p, std::ostream& out) {
  out << p.bold("tr2audit") << " " << report.run.tool_version << " · target " << p.bold(to_string(report.target))
      << (report.target == TargetProfile::xla ? " (legacy PyTorch/XLA stack)" : " (TorchNeuron native stack)") << "\n";
  out << "Scanned " << report.scan.files_scanned << " files (" << report.scan.lines << " lines) in "
      << report.scan.root;
  if (report.scan.files_skipped) out << ", skipped " << report.scan.files_skipped;
  if (report.scan.files_with_syntax_errors)
    out << ", " << report.scan.files_with_syntax_errors << " with syntax errors";
  out << "\n";
}

void render_counts(const Report& report, const Palette& p, std::ostream& out) {
  std::size_t active = 0;
  for (const auto& f : report.findings) active += f.suppressed ? 0 : 1;
  out << p.bold("Findings: ") << active;
  std::string sep = " (";
  for (Severity severity : k_all_severities) {
    const std::uint32_t count = count_by_severity(report).at(std::string(to_string(severity)));
    if (count == 0) continue;
    out << sep << count << " " << p.severity(severity);
    sep = ", ";
  }
  out << (sep == ", " ? ")" : "");
  if (active != report.findings.size()) out << ", " << report.findings.size() - active << " suppressed";
  out << "\n";
  std::string categories;
  for (const auto& [category, count] : count_by_category(report)) {
    if (count) categories += (categories.empty() ? "" : ", ") + category + " " + std::to_string(count);
  }
  if (!categories.empty()) out << "  " << categories << "\n";
  if (!report.problems.empty()) out << "Problems: " << report.problems.size() << " (the scan went on)\n";
}

void render_finding(const rules::Finding& f, const Palette& p, std::ostream& out) {
  out << "  " << p.bold(f.path + ":" + std::to_string(f.at.line) + ":" + std::to_string(f.at.column));
  if (f.cell.cell)
    out << p.dim(text::enclose(" (cell ", std::to_string(f.cell.cell) + ", line " + std::to_string(f.cell.line), ")"));
  out << " " << p.severity(f.severity) << " " << f.rule_id << " " << p.dim(text::enclose("[", f.id, "]")) << "\n";
  out << "    " << f.message << "\n";
  if (!f.snippet.empty()) {
    out << "    " << p.dim("|") << " " << f.snippet << "\n";
    if (const std::string caret = caret_line(f); !caret.empty()) {
      out << "    " << p.dim("|") << " " << p.paint(caret, f.severity >= Severity::high ? "31" : "33") << "\n";
    }
  }
  std::string where(f.region_name());
  if (!f.function.empty()) where += " · " + f.function;
  const std::vector<std::string> guards = rules::guard_names(f.guards);
  if (!guards.empty()) where += " · guarded by " + text::join_limited(guards, guards.size());
  if (!f.reached_from.empty()) where += " · via " + f.reached_from;
  out << "    " << p.dim(where + " · confidence " + std::string(to_string(f.confidence))) << "\n";
}

void render_findings(const Report& report, const Palette& p, std::ostream& out) {
  // The training path first; code only inference, export, tooling or tests reach comes in its own
  // section: reported, not part of the training verdict.
  std::size_t off_path = 0;
  for (const auto& finding : report.findings) off_path += !finding.suppressed && finding.off_training_path ? 1 : 0;
  for (const bool off : {false, true}) {
    if (off && off_path == 0) break;
    if (off)
      out << "\n"
          << p.bold("Off the training path") << " (" << off_path
          << "; only inference, export, tooling or tests reach it: not part of the training verdict, "
             "--include-roles to judge it)\n";
    std::string current;
    for (const auto& finding : report.findings) {
      if (finding.suppressed || finding.off_training_path != off) continue;
      if (finding.path != current) {
        current = finding.path;
        out << "\n" << p.bold(current) << "\n";
      }
      render_finding(finding, p, out);
    }
  }
  std::size_t suppressed = 0;
  for (const auto& finding : report.findings) suppressed += finding.suppressed ? 1 : 0;
  if (suppressed == 0) return;
  out << "\n" << p.bold("Suppressed") << " (" << suppressed << ")\n";
  for (const auto& f : report.findings) {
    if (!f.suppressed) continue;
    out << "  " << f.path << ":" << f.at.line << ":" << f.at.column << " " << f.rule_id << " " << p.dim(f.id) << " · "
        << f.suppressed->reason << (f.suppressed->until.empty() ? "" : " (until " + f.suppressed->until + ")") << "\n";
  }
}

/// The gate section (report/gate.cpp's content): baseline, diff delta, decision.
void render_gate(const Report& report, const Palette& p, std::ostream& out) {
  const std::vector<GateLine> lines = gate_lines(report);
  if (lines.empty()) return;
  out << "\n";
  for (const GateLine& line : lines) {
    out << std::string(static_cast<std::size_t>(line.indent) * 2, ' ');
    for (const Phrase& phrase : line.phrases)
      out << (phrase.kind == Phrase::Kind::strong ? p.bold(phrase.text) : phrase.text);
    out << "\n";
  }
}

void render_body(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  render_header(report, p, out);
  out << "\n";
  text::render_verdict_line(report, p, out);
  render_counts(report, p, out);
  if (options.quiet) return;
  text::render_assessment(report, p, out);
  text::render_operators(report.operators, p, out);
  text::render_setup(report.setup, p, out);
  render_findings(report, p, out);
  if (!report.problems.empty()) {
    out << "\n" << p.bold("Problems") << " (" << report.problems.size() << "; the scan went on)\n";
    for (const auto& problem : report.problems)
      out << "  " << to_string(problem.kind) << ": " << format_problem(problem) << "\n";
  }
}

}  // namespace

void render_text(const Report& report, const RenderOptions& options, std::ostream& out) {
  const Palette p{options.color};
  // Under a baseline or a diff the text lists what the gate looks at (and suppressions); the verdict
  // and the gate section speak for the whole report.
  if (filters_findings(report)) {
    render_body(gated_view(report), options, p, out);
  } else {
    render_body(report, options, p, out);
  }
  render_gate(report, p, out);
}

}  // namespace tr2audit::report
