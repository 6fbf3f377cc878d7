// The Markdown report's building blocks (markdown_parts.hpp) and the sections that fold into <details>.
#include "markdown_parts.hpp"

namespace tr2audit::report::markdown {

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

std::string code(std::string_view text) {
  std::string fence = "`";
  while (text.find(fence) != std::string_view::npos) fence += '`';
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  std::string out = fence + (pad ? " " : "");
  for (char c : text) out += (c == '\n' || c == '\r' || c == '|') ? (c == '|' ? '/' : ' ') : c;
  return out + (pad ? " " : "") + fence;
}

std::string clip(std::string_view text, std::size_t max) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (points++ == max) return std::string(text.substr(0, i)) + "…";
  }
  return std::string(text);
}

namespace {

/// A URL safe inside a Markdown link target: spaces, parentheses and angle brackets percent-encoded.
std::string link_target(std::string_view url) {
  std::string out;
  for (char c : url) {
    switch (c) {
      case ' ':
        out += "%20";
        break;
      case '(':
        out += "%28";
        break;
      case ')':
        out += "%29";
        break;
      case '<':
        out += "%3C";
        break;
      case '>':
        out += "%3E";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string link(const Report& report, const RenderOptions& options, std::string_view path, std::uint32_t line) {
  std::string label = repo_path(report, path);
  if (line > 0) label.append(":").append(std::to_string(line));
  return "[" + code(label) + "](" + link_target(code_url(report, options, path, line)) + ")";
}

std::string finding_link(const Report& report, const RenderOptions& options, const rules::Finding& f) {
  if (f.cell.cell == 0) return link(report, options, f.path, f.at.line);
  const std::string label =
      repo_path(report, f.path) + ":cell " + std::to_string(f.cell.cell) + ":" + std::to_string(f.cell.line);
  return "[" + code(label) + "](" + link_target(code_url(report, options, f.path, 0)) + ")";
}

std::string location_link(const Report& report, const RenderOptions& options, std::string_view location) {
  const auto [path, line] = split_location(location);
  return line == 0 ? code(location) : link(report, options, path, line);
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

std::string full_report(const RenderOptions& options) {
  if (!options.link_full.empty()) return "[the full report](" + link_target(options.link_full) + ")";
  return "the full report (this run's SARIF, HTML or JSON output)";
}

void table(Sink& out, std::string_view header, const std::vector<std::string>& rows, std::size_t max_rows,
           std::string_view what, const RenderOptions& options) {
  if (rows.empty()) return;
  std::size_t written = 0;
  if (out.add(std::string(header))) {
    while (written < rows.size() && written < max_rows && out.add(rows[written])) ++written;
  }
  if (written < rows.size())
    out.note("\n+" + std::to_string(rows.size() - written) + " more " + std::string(what) + " not shown: see " +
             full_report(options) + ".\n");
}

void plan_section(const Report& report, const RenderOptions& options, Sink& out) {
  if (!report.recommendation || report.recommendation->plan.empty()) return;
  const auto& plan = report.recommendation->plan;
  if (!out.add("\n<details><summary>Migration plan (" + std::to_string(plan.size()) + " step" +
               (plan.size() == 1 ? "" : "s") + ")</summary>\n\n"))
    return;
  std::size_t i = 0;
  for (; i < plan.size(); ++i) {
    std::string step = std::to_string(i + 1) + ". **" + md(plan[i].step) + "**";
    if (!plan[i].why.empty()) step += " — " + md(plan[i].why);
    step += "\n";
    if (!plan[i].locations.empty()) {
      step += "   at ";
      for (std::size_t k = 0; k < plan[i].locations.size() && k < 5; ++k)
        step += (k ? ", " : "") + location_link(report, options, plan[i].locations[k]);
      if (plan[i].locations.size() > 5) step += ", +" + std::to_string(plan[i].locations.size() - 5) + " more";
      step += "\n";
    }
    for (const auto& probe : plan[i].probes) step += "   - probe: " + md(probe) + "\n";
    if (!out.add(step)) break;
  }
  if (i < plan.size())
    out.note("\n+" + std::to_string(plan.size() - i) + " more steps: see " + full_report(options) + ".\n");
  out.note("\n</details>\n");
}

void operators_section(const Report& report, const RenderOptions& options, Sink& out) {
  const OperatorSummary& ops = report.operators;
  if (ops.distinct == 0) return;
  std::string head = "\n<details><summary>Operators: " + std::to_string(ops.distinct) + " distinct, " +
                     std::to_string(ops.unsupported) + " unsupported, " + std::to_string(ops.replace) +
                     " to replace, " + std::to_string(ops.caveat) + " with caveats</summary>\n\n";
  if (!ops.neuron_sdk.empty())
    head += "Checked against Neuron SDK " + md(ops.neuron_sdk) + " (" + md(ops.checked) + ").\n\n";
  if (!out.add(head)) return;
  std::vector<std::string> rows;
  for (const auto& op : ops.ops) {
    if (op.status == "supported") continue;
    rows.push_back("| " + code(op.name) + " | " + op.status + " | " + std::to_string(op.calls) + " | " +
                   (op.first_location.empty() ? "" : location_link(report, options, op.first_location)) + " | " +
                   md(clip(op.note, 300)) +
                   (op.alternative.empty() ? "" : " Instead: " + md(clip(op.alternative, 200))) + " |\n");
  }
  table(out, "| Operator | Status | Calls | First use | Note |\n|---|---|---|---|---|\n", rows, rows.size(),
        "operators", options);
  out.note("\n</details>\n");
}

void setup_section(const Report& report, const RenderOptions& options, Sink& out) {
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
        body += (k ? ", " : " (") + location_link(report, options, (*facts)[i].evidence[k]) +
                (k + 1 == (*facts)[i].evidence.size() ? ")" : "");
    }
    body += " |\n";
  }
  if (body.empty()) return;
  out.add("\n<details><summary>Training setup</summary>\n\n| Aspect | Detected |\n|---|---|\n" + body +
          "\n</details>\n");
}

void problems_section(const Report& report, Sink& out) {
  if (report.problems.empty()) return;
  std::string text = "\n<details><summary>" + std::to_string(report.problems.size()) + " problem" +
                     (report.problems.size() == 1 ? "" : "s") + " (the scan went on)</summary>\n\n";
  std::size_t listed = 0;
  for (; listed < report.problems.size() && listed < 50; ++listed)
    text += "- " + code(to_string(report.problems[listed].kind)) + " " +
            md(clip(format_problem(report.problems[listed]), 300)) + "\n";
  if (listed < report.problems.size()) text += "- +" + std::to_string(report.problems.size() - listed) + " more\n";
  out.add(text + "\n</details>\n");
}

}  // namespace tr2audit::report::markdown
