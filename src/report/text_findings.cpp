// The text report's findings section. Files are ordered by where their findings run (training hot
// path, other training code, code no training entry point reaches, then off the training path) and
// their worst severity. By default info findings are hidden, the findings of one rule in one file are
// one line with a count, and the section stops at its line budget with a count of what is left;
// --all prints every finding with its code line and a caret under the column.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "text_style.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::report::text {
namespace {

using Finding = rules::Finding;

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

/// 0 training hot path, 1 other training code, 2 a file-level finding (a manifest, config, Dockerfile
/// or CUDA source line: no code region, read by a run rather than reached), 3 no training entry point
/// reaches it, 4 off the path.
constexpr int k_off_path_rank = 4;
int place_rank(const Finding& f) {
  if (f.off_training_path) return k_off_path_rank;
  if (!f.region) return 2;
  if (!f.training_reached) return 3;
  return f.region == facts::Region::forward || f.region == facts::Region::training_step ? 0 : 1;
}

constexpr std::string_view k_place_labels[] = {"training hot path", "training path",
                                               "configuration, build or kernel source", "not reached by a training run",
                                               "off the training path"};

struct FileGroup {
  std::string path;
  int rank = k_off_path_rank;
  Severity worst = Severity::info;
  std::vector<const Finding*> findings;  // severity first, then line
};

std::vector<FileGroup> group_files(const Report& report, bool all, std::size_t& hidden_info) {
  std::map<std::string, FileGroup> files;
  for (const auto& f : report.findings) {
    if (f.suppressed) continue;
    if (!all && f.severity == Severity::info) {
      ++hidden_info;
      continue;
    }
    FileGroup& g = files[f.path];
    g.path = f.path;
    g.rank = g.findings.empty() ? place_rank(f) : std::min(g.rank, place_rank(f));
    g.worst = std::max(g.worst, f.severity);
    g.findings.push_back(&f);
  }
  std::vector<FileGroup> out;
  for (auto& [path, g] : files) {
    std::stable_sort(g.findings.begin(), g.findings.end(), [](const Finding* a, const Finding* b) {
      return a->severity != b->severity ? a->severity > b->severity : a->at.line < b->at.line;
    });
    out.push_back(std::move(g));
  }
  std::stable_sort(out.begin(), out.end(), [](const FileGroup& a, const FileGroup& b) {
    if ((a.rank == k_off_path_rank) != (b.rank == k_off_path_rank)) return b.rank == k_off_path_rank;
    return a.rank != b.rank ? a.rank < b.rank : a.worst > b.worst;
  });
  return out;
}

/// One line per rule and severity in the file: its first finding, then "×N (also lines a, b, +k more)".
/// A guarded (low) finding of a rule is not folded under the same rule's high one.
std::vector<std::string> collapsed_lines(const FileGroup& g, const Palette& p) {
  std::vector<std::string> out;
  using Key = std::pair<std::string, Severity>;
  std::map<Key, std::vector<const Finding*>> by_rule;
  std::vector<Key> order;
  for (const Finding* f : g.findings) {
    const Key key{f->rule_id, f->severity};
    if (!by_rule.contains(key)) order.push_back(key);
    by_rule[key].push_back(f);
  }
  for (const auto& rule : order) {
    const auto& same = by_rule[rule];
    const Finding& f = *same.front();
    std::string line = "  " + std::to_string(f.at.line) + ":" + std::to_string(f.at.column) + " " +
                       p.severity(f.severity) + " " + f.rule_id + " · " + f.message + " " +
                       p.dim(enclose("[", f.id, "]"));
    if (same.size() > 1) {
      std::vector<std::string> lines;
      for (std::size_t i = 1; i < same.size(); ++i) lines.push_back(std::to_string(same[i]->at.line));
      line += " ×" + std::to_string(same.size()) +
              p.dim(" (also line" + std::string(lines.size() == 1 ? " " : "s ") + join_limited(lines, 4) + ")");
    }
    out.push_back(line);
  }
  return out;
}

void render_suppressed(const Report& report, bool all, const Palette& p, std::ostream& out) {
  std::size_t suppressed = 0;
  for (const auto& finding : report.findings) suppressed += finding.suppressed ? 1 : 0;
  if (suppressed == 0) return;
  out << "\n" << p.bold("Suppressed") << " (" << suppressed << ")\n";
  std::size_t shown = 0;
  for (const auto& f : report.findings) {
    if (!f.suppressed) continue;
    if (!all && shown == 5) {
      out << "  " << p.dim("(+" + plural(suppressed - shown, "more suppressed finding") + ": --all)") << "\n";
      break;
    }
    ++shown;
    out << "  " << f.path << ":" << f.at.line << ":" << f.at.column << " " << f.rule_id << " " << p.dim(f.id) << " · "
        << f.suppressed->reason << (f.suppressed->until.empty() ? "" : " (until " + f.suppressed->until + ")") << "\n";
  }
}

void section_heading(bool off, std::size_t off_count, const Palette& p, std::ostream& out) {
  if (off) {
    out << "\n"
        << p.bold("Off the training path") << " (" << off_count
        << "; only inference, export, tooling or tests reach it: not part of the training verdict, "
           "--include-roles to judge it)\n";
  } else {
    out << "\n" << p.bold("Findings by file") << " (training path first)\n";
  }
}

}  // namespace

void render_findings(const Report& report, const RenderOptions& options, const Palette& p, std::size_t budget,
                     std::ostream& out) {
  std::size_t hidden_info = 0;
  const std::vector<FileGroup> files = group_files(report, options.all, hidden_info);
  std::size_t off_count = 0, total = 0;
  for (const auto& g : files) {
    total += g.findings.size();
    off_count += g.rank == k_off_path_rank ? g.findings.size() : 0;
  }
  std::size_t used = 0, shown = 0, files_left = 0, findings_left = 0;
  bool in_off = false, headed = false;
  for (const auto& g : files) {
    const bool off = g.rank == k_off_path_rank;
    std::vector<std::string> lines;
    if (!options.all) lines = collapsed_lines(g, p);
    const std::size_t need = 2 + (off != in_off || !headed ? 2 : 0) + 1;
    if (!options.all && used + need > budget) {
      ++files_left;
      findings_left += g.findings.size();
      continue;
    }
    if (!headed || off != in_off) {
      section_heading(off, off_count, p, out);
      used += 2;
      headed = true;
      in_off = off;
    }
    out << "\n" << p.bold(g.path) << " " << p.dim(enclose("(", k_place_labels[g.rank], ")")) << "\n";
    used += 2;
    if (options.all) {
      for (const Finding* f : g.findings) render_finding(*f, p, out);
      shown += g.findings.size();
      continue;
    }
    std::size_t i = 0;
    for (; i < lines.size() && used < budget; ++i) {  // a line may wrap onto more than one
      out << lines[i] << "\n";
      used += 1 + static_cast<std::size_t>(std::count(lines[i].begin(), lines[i].end(), '\n'));
    }
    if (i < lines.size()) {
      out << "  " << p.dim("(+" + plural(lines.size() - i, "more rule") + " in this file)") << "\n";
      ++used;
    }
    shown += g.findings.size();
  }
  if (!options.all && (files_left > 0 || hidden_info > 0 || shown < total)) {
    std::string note = "Not shown: ";
    if (files_left > 0) note += plural(findings_left, "finding") + " in " + plural(files_left, "more file");
    if (hidden_info > 0) note += std::string(files_left > 0 ? "; " : "") + plural(hidden_info, "info finding");
    if (files_left == 0 && hidden_info == 0) note = "Repeats of a rule in a file are collapsed";
    out << "\n"
        << wrap(note + ". `--all` shows every finding; `-f json` or `-f html` writes the full report.", options.width,
                "", "");
  }
  render_suppressed(report, options.all, p, out);
}

}  // namespace tr2audit::report::text
