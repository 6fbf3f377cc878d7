// Runs each rule alone over its fixture (a catch-all rule with all the others, which cover it) and
// compares the exact line sets with the annotations.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/fixture.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::rules {

namespace {

namespace fs = std::filesystem;

struct FixtureFile {
  fs::path path;
  std::string rel_path;
  fs::path fixture;
};

std::string at(const fs::path& file, std::uint32_t line) {
  return file.generic_string() + (line == 0 ? "" : ":" + std::to_string(line));
}

/// <root>/<category>/<name>.py and every file under <root>/<category>/<name>/, sorted.
std::vector<FixtureFile> fixture_files(const fs::path& base) {
  std::vector<FixtureFile> files;
  std::error_code ec;
  fs::path single = base;
  single += ".py";
  if (fs::is_regular_file(single, ec)) files.push_back({single, single.filename().generic_string(), single});
  if (!fs::is_directory(base, ec)) return files;
  std::vector<FixtureFile> nested;
  for (fs::recursive_directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec))
      nested.push_back({it->path(), fs::relative(it->path(), base, ec).generic_string(), base});
  }
  std::sort(nested.begin(), nested.end(), [](const auto& a, const auto& b) { return a.rel_path < b.rel_path; });
  files.insert(files.end(), nested.begin(), nested.end());
  return files;
}

std::optional<std::string> read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class RuleFixtureRun {
 public:
  RuleFixtureRun(const Rule& rule, const RuleSet& all, const FactsProvider& provider, const OpTable* ops,
                 FixtureResult& result)
      : m_rule(rule), m_all(all), m_single(all.only(rule.id)), m_provider(provider), m_ops(ops), m_result(result) {}

  void file(const FixtureFile& fixture) {
    const std::optional<std::string> text = read_text(fixture.path);
    if (!text) return fail(fixture.path, 0, "cannot read the fixture");
    const FixtureAnnotations parsed = parse_annotations(*text, comment_leader(fixture.path));
    for (const AnnotationError& error : parsed.errors) fail(fixture.path, error.line, error.message);
    const TargetProfile profile = parsed.target.value_or(TargetProfile::native);
    std::set<std::uint32_t> expect, ok, todo;
    m_severity.clear();
    for (const Annotation& a : parsed.annotations) {
      if (a.rule_id != m_rule.id) {
        if (m_all.find(a.rule_id) == nullptr)
          fail(fixture.path, a.line, "annotation names unknown rule '" + a.rule_id + "'");
        continue;
      }
      auto& lines = a.kind == AnnotationKind::expect ? expect : a.kind == AnnotationKind::ok ? ok : todo;
      if (a.target_line != 0) lines.insert(a.target_line);
      if (a.target_line != 0 && a.severity) m_severity[a.target_line] = *a.severity;
    }
    m_result.expects += expect.size();
    m_result.oks += ok.size();
    if (!expect.empty() && !m_rule.applies_to(profile)) {
      fail(fixture.path, 0,
           "the rule does not run under the '" + std::string(to_string(profile)) + "' profile: add '" +
               std::string(comment_leader(fixture.path)) + " target: ...'");
    }
    compare(fixture, profile, expect, ok, todo);
  }

 private:
  void compare(const FixtureFile& fixture, TargetProfile profile, const std::set<std::uint32_t>& expect,
               const std::set<std::uint32_t>& ok, const std::set<std::uint32_t>& todo) {
    const FixtureFacts facts = m_provider(FixtureInput{fixture.fixture, fixture.path, fixture.rel_path});
    // A catch-all rule runs with every rule, so its fixture shows where the specific rules cover it.
    const RuleSet& rules = m_rule.catch_all ? m_all : m_single;
    std::vector<Finding> findings = facts.program && facts.file ? match(program::FileView{*facts.program, *facts.file},
                                                                        rules, profile, m_ops, &m_all)
                                                                : std::vector<Finding>{};
    std::erase_if(findings, [&](const Finding& f) { return f.rule_id != m_rule.id; });
    if (m_rule.subject == SubjectKind::file) return compare_file(fixture, findings, expect, ok);
    std::set<std::uint32_t> hits;
    for (const Finding& finding : findings) {
      if (!hits.insert(finding.at.line).second) continue;
      const std::uint32_t line = finding.at.line;
      if (ok.count(line) != 0) {
        fail(fixture.path, line, "finding on an 'ok' line: " + finding.message);
      } else if (todo.count(line) != 0) {
        fail(fixture.path, line, "'todo-expect' is now reported: promote it to 'expect'");
      } else if (expect.count(line) == 0) {
        fail(fixture.path, line, "finding on a line without an annotation: " + finding.message);
      } else if (const auto want = m_severity.find(line);
                 want != m_severity.end() && finding.severity != want->second) {
        fail(fixture.path, line,
             "'expect-" + std::string(to_string(want->second)) + "' but reported at " +
                 std::string(to_string(finding.severity)) + ": " + finding.message);
      }
    }
    for (std::uint32_t line : expect) {
      if (hits.count(line) == 0) fail(fixture.path, line, "expected a finding, got none");
    }
  }

  /// A `file:` rule hits line 1 of a whole file: an annotation anywhere says whether the file is hit.
  void compare_file(const FixtureFile& fixture, const std::vector<Finding>& findings,
                    const std::set<std::uint32_t>& expect, const std::set<std::uint32_t>& ok) {
    if (!expect.empty() && !ok.empty()) {
      return fail(fixture.path, *ok.begin(), "a file rule's fixture file is either 'expect' or 'ok', not both");
    }
    if (!expect.empty() && findings.empty()) fail(fixture.path, *expect.begin(), "expected the file to be reported");
    if (!ok.empty() && !findings.empty()) fail(fixture.path, *ok.begin(), "file reported on an 'ok' file");
    if (expect.empty() && ok.empty() && !findings.empty()) {
      fail(fixture.path, 0, "file reported without an annotation: " + findings.front().message);
    }
  }

  void fail(const fs::path& file, std::uint32_t line, const std::string& reason) {
    m_result.failures.push_back(at(file, line) + ": " + reason);
  }

  std::map<std::uint32_t, Severity> m_severity;  ///< expect-low / expect-info lines of the current file
  const Rule& m_rule;
  const RuleSet& m_all;
  RuleSet m_single;
  const FactsProvider& m_provider;
  const OpTable* m_ops;
  FixtureResult& m_result;
};

}  // namespace

std::vector<FixtureResult> run_fixtures(const RuleSet& rules, const FixtureOptions& options,
                                        const FactsProvider& provider) {
  std::vector<FixtureResult> results;
  for (const Rule& rule : rules.rules()) {
    if (!options.only_rule.empty() && rule.id != options.only_rule) continue;
    FixtureResult& result = results.emplace_back();
    result.rule_id = rule.id;
    const fs::path root =
        options.fixtures_root.empty() ? rule.source_dir.parent_path() / "tests" / "rules" : options.fixtures_root;
    const fs::path base = root / std::string(to_string(rule.category)) / std::string(rule.name());
    const std::vector<FixtureFile> files = fixture_files(base);
    if (files.empty()) {
      result.failures.push_back(base.generic_string() + ".py: no fixture (add " + std::string(rule.name()) +
                                ".py or a folder " + std::string(rule.name()) + "/)");
      continue;
    }
    RuleFixtureRun run(rule, rules, provider, options.op_table, result);
    for (const FixtureFile& file : files) run.file(file);
    if (result.expects == 0 || result.oks == 0) {
      result.failures.push_back(files.front().path.generic_string() + ": the fixture needs at least one 'expect' " +
                                "and one 'ok' annotation (has " + std::to_string(result.expects) + " expect, " +
                                std::to_string(result.oks) + " ok)");
    }
  }
  return results;
}

std::string format_fixture_results(const std::vector<FixtureResult>& results) {
  std::string out;
  std::size_t passed = 0;
  for (const FixtureResult& result : results) {
    if (result.passed()) {
      ++passed;
      out += "PASS " + result.rule_id + " (" + std::to_string(result.expects) + " expect, " +
             std::to_string(result.oks) + " ok)\n";
      continue;
    }
    for (const std::string& failure : result.failures) out += "FAIL " + result.rule_id + ": " + failure + "\n";
  }
  out += std::to_string(passed) + " passed, " + std::to_string(results.size() - passed) + " failed\n";
  return out;
}

}  // namespace tr2audit::rules
