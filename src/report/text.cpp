// The human report: the verdict line and counts, why, the findings that drive the verdict, each
// training entry point's verdict, what would change it, the plan, category scores, operators and
// training setup, then findings by file (training path first), then problems. By default it fits
// about 150 lines (info hidden, repeats collapsed, the rest counted); --all shows everything;
// --quiet keeps the verdict line and the counts. Colour only when asked (TTY, NO_COLOR, --no-color).
#include "tr2audit/core/text.hpp"

#include <algorithm>
#include <sstream>
#include <string>

#include "renderers.hpp"
#include "text_style.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::report {
namespace {

using text::Palette;

constexpr std::size_t k_default_lines = 150;     // the default report fits about this many lines
constexpr std::size_t k_min_finding_lines = 12;  // findings always get at least this many
constexpr std::size_t k_footer_lines = 4;        // kept free for the note on what is not shown

void render_header(const Report& report, const Palette& p, std::ostream& out) {
  out << p.bold("tr2audit") << " " << report.run.tool_version << " · target " << p.bold(to_string(report.target))
      << (report.target == TargetProfile::xla ? " (legacy PyTorch/XLA stack)" : " (TorchNeuron native stack)") << "\n";
  out << "Scanned " << text::plural(report.scan.files_scanned, "file") << " ("
      << text::plural(report.scan.lines, "line") << ") in " << report.scan.root;
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

std::size_t lines_in(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string findings_text(const Report& report, const RenderOptions& options, const Palette& p, std::size_t budget) {
  std::ostringstream findings;
  text::render_findings(report, options, p, budget, findings);
  return findings.str();
}

void render_body(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out) {
  std::ostringstream head;
  render_header(report, p, head);
  head << "\n";
  text::render_verdict_line(report, p, head);
  render_counts(report, p, head);
  if (options.quiet) {
    out << head.str();
    return;
  }
  text::render_reasons(report, options, p, head);
  text::render_drivers(report, options, p, head);
  text::render_entry_verdicts(report, options, p, head);
  text::render_assessment(report, options, p, head);
  text::render_operators(report.operators, options, p, head);
  text::render_setup(report.setup, p, head);
  const std::string decided = head.str();
  out << decided;
  // The findings get what is left of the default budget (at least a screenful of their own).
  const auto used = static_cast<std::size_t>(std::count(decided.begin(), decided.end(), '\n'));
  // Kept free: the closing "Not shown: …" note and the problems section.
  const std::size_t problem_lines = report.problems.empty() ? 0 : 2 + std::min<std::size_t>(report.problems.size(), 6);
  const std::size_t reserve = used + k_footer_lines + problem_lines;
  std::size_t budget =
      reserve + k_min_finding_lines < k_default_lines ? k_default_lines - reserve : k_min_finding_lines;
  // The budget is an estimate (wrapped lines, headings); when the whole report still runs over, render
  // the findings once more with the excess taken off, so the default report keeps its promise.
  std::string findings = findings_text(report, options, p, budget);
  const std::size_t total = used + lines_in(findings) + problem_lines;
  if (!options.all && total > k_default_lines && budget > k_min_finding_lines) {
    budget = std::max(k_min_finding_lines, budget - (total - k_default_lines));
    findings = findings_text(report, options, p, budget);
  }
  out << findings;
  if (report.problems.empty()) return;
  out << "\n" << p.bold("Problems") << " (" << report.problems.size() << "; the scan went on)\n";
  const std::size_t shown = options.all ? report.problems.size() : std::min<std::size_t>(report.problems.size(), 5);
  for (std::size_t i = 0; i < shown; ++i)
    out << "  " << to_string(report.problems[i].kind) << ": " << format_problem(report.problems[i]) << "\n";
  if (shown < report.problems.size())
    out << "  " << p.dim("(+" + text::plural(report.problems.size() - shown, "more problem") + ": --all)") << "\n";
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
