// Applying suppression directives to a report: line-level first, then file-level; stale directives
// (unused or expired) become low meta findings at the directive's line.
#include "tr2audit/gate/suppress.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/gate/report_edit.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::gate {
namespace {

std::string join(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

/// The directives of one file, with the code line each covers and usage counts.
struct FileDirectives {
  discover::LoadedSource source;  ///< text and cell map, for the meta findings
  std::vector<Directive> directives;
  std::vector<std::uint32_t> covers;             ///< per directive: the line it applies to (0 = file level)
  std::vector<std::vector<std::uint32_t>> used;  ///< per directive, per id
  std::vector<bool> expired;
};

std::uint32_t covered_line(const Directive& d, const std::vector<facts::DirectiveComment>& comments) {
  if (d.file_level) return 0;
  for (const facts::DirectiveComment& c : comments) {
    if (c.line == d.line) return c.covers;
  }
  return d.line;
}

bool directive_matches(const Directive& d, std::uint32_t covers, const rules::Finding& f, std::size_t& id_index) {
  if (!d.file_level && covers != f.at.line && d.line != f.at.line) return false;
  for (std::size_t i = 0; i < d.rule_ids.size(); ++i) {
    if (glob_match(d.rule_ids[i], f.rule_id)) {
      id_index = i;
      return true;
    }
  }
  return false;
}

void suppress_one(rules::Finding& f, FileDirectives& file) {
  for (bool file_level : {false, true}) {
    for (std::size_t k = 0; k < file.directives.size(); ++k) {
      const Directive& d = file.directives[k];
      std::size_t id_index = 0;
      if (d.file_level != file_level || file.expired[k] || !directive_matches(d, file.covers[k], f, id_index)) continue;
      f.suppressed = rules::Suppression{d.reason, d.until};
      ++file.used[k][id_index];
      return;
    }
  }
}

rules::Finding meta_finding(std::string_view rule_id, const std::string& path, const Directive& d,
                            const std::string& id, const discover::LoadedSource& source, std::string message) {
  rules::Finding f;
  f.rule_id = rule_id;
  f.category = parse_category(id.substr(0, id.find('.'))).value_or(Category::cuda_api);
  f.severity = Severity::low;
  f.confidence = Confidence::high;
  f.message = std::move(message);
  f.path = path;
  f.at = Span{d.line, d.column, d.line, d.column + 1, 0, 0};
  f.cell = source.map_line(d.line);
  if (f.cell.cell == 0) f.cell = CellLocation{};
  f.subject = id;
  f.meta = true;  // about the directive itself: reported, never scored, no region
  rules::fill_snippet_and_fingerprint(f, source.text);
  return f;
}

std::string where(const Directive& d) {
  return d.file_level ? "in this file" : "on the line it covers";
}

void stale_findings(const std::string& path, const FileDirectives& file, const std::string& today,
                    std::vector<rules::Finding>& out) {
  for (std::size_t k = 0; k < file.directives.size(); ++k) {
    const Directive& d = file.directives[k];
    if (file.expired[k]) {
      out.push_back(meta_finding(k_expired_suppression, path, d, d.rule_ids.front(), file.source,
                                 "suppression of " + join(d.rule_ids) + " expired on " + d.until + " (today is " +
                                     today + "): what it hid is reported again; fix it or renew the date"));
      continue;
    }
    for (std::size_t i = 0; i < d.rule_ids.size(); ++i) {
      if (file.used[k][i]) continue;
      out.push_back(
          meta_finding(k_unused_suppression, path, d, d.rule_ids[i], file.source,
                       "suppression of " + d.rule_ids[i] + " matches no finding " + where(d) + ": remove it"));
    }
  }
}

}  // namespace

void apply_directives(const facts::FileFacts& file, std::string_view text, const SuppressOptions& options,
                      std::vector<rules::Finding>& findings, std::vector<Problem>& problems) {
  if (file.directives.empty()) return;
  std::vector<Comment> comments;
  for (const facts::DirectiveComment& c : file.directives)
    comments.push_back(Comment{c.line, c.column, c.text, c.own_line});
  ParsedDirectives parsed = parse_directives(comments, file.path, options.known_rule_ids);
  for (auto& problem : parsed.problems) problems.push_back(std::move(problem));
  if (parsed.directives.empty()) return;
  FileDirectives state{discover::LoadedSource{std::string(text), file.cell_first_lines, file.cell_numbers},
                       std::move(parsed.directives)};
  for (const Directive& d : state.directives) {
    state.covers.push_back(covered_line(d, file.directives));
    state.used.emplace_back(d.rule_ids.size(), 0);
    state.expired.push_back(!d.until.empty() && d.until < options.today);
  }
  for (rules::Finding& f : findings) {
    if (!f.suppressed && f.path == file.path) suppress_one(f, state);
  }
  stale_findings(file.path, state, options.today, findings);
}

void add_suppression_rule_info(report::Report& report) {
  add_meta_rule_info(report, k_unused_suppression, "Suppression comment that suppresses nothing",
                     "The finding it was written for is gone (or the id is wrong); a stale suppression would "
                     "silently hide the next finding of that rule on this line.",
                     "Delete the tr2audit: ignore[...] comment.");
  add_meta_rule_info(report, k_expired_suppression, "Suppression past its until= date",
                     "The team agreed to fix this by the date in until=; the finding is active again.",
                     "Fix the finding, or renew until= with a new date and reason.");
}

report::Report apply_suppressions(const report::Report& in, const std::vector<std::string>& files,
                                  const SourceReader& read, const SuppressOptions& options) {
  report::Report out = in;
  std::map<std::string, std::vector<rules::Finding>> by_path;
  for (rules::Finding& f : out.findings) by_path[f.path].push_back(std::move(f));
  out.findings.clear();
  for (const std::string& path : files) {
    std::optional<discover::LoadedSource> source = read(path);
    if (!source) continue;
    facts::FileFacts file;
    file.path = FactString(path);
    file.directives = directive_comments(source->text, comment_syntax_for(path));
    file.cell_first_lines = source->cell_first_lines;
    file.cell_numbers = source->cell_numbers;
    apply_directives(file, source->text, options, by_path[path], out.problems);
  }
  for (auto& [path, findings] : by_path) {
    for (auto& f : findings) out.findings.push_back(std::move(f));
  }
  std::sort(out.problems.begin(), out.problems.end());
  renumber_findings(out);
  add_suppression_rule_info(out);
  return out;
}

}  // namespace tr2audit::gate
