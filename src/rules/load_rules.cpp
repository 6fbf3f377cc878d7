// Finds rule files under the rule folders, parses them with yaml-cpp (exceptions become Problems)
// and collects the compiled rules into a RuleSet; rejects duplicate ids across files.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "rule_spec.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::rules {

namespace {

namespace fs = std::filesystem;

bool is_other_data_file(const fs::path& file, const fs::path& dir) {
  const std::string name = file.filename().string();
  return (name == "neuron-ops.yaml" || name == "scoring.yaml") && file.parent_path() == dir;
}

/// The *.yaml files under dir, sorted; an unreadable folder becomes a problem.
std::vector<fs::path> rule_files(const fs::path& dir, std::vector<Problem>& problems) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    problems.push_back(rule_problem(dir.generic_string(), {}, "rules folder not found"));
    return files;
  }
  fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 8) it.disable_recursion_pending();
    const fs::path& file = it->path();
    if (file.extension() == ".yaml" && it->is_regular_file(ec) && !is_other_data_file(file, dir)) {
      files.push_back(file);
    }
  }
  if (ec) problems.push_back(rule_problem(dir.generic_string(), {}, "cannot list rules folder: " + ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

Pos mark_pos(const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return {};
  return Pos{static_cast<std::uint32_t>(mark.line + 1), static_cast<std::uint32_t>(mark.column + 1)};
}

}  // namespace

std::optional<Rule> load_rule_text(std::string_view yaml_text, const fs::path& path, std::vector<Problem>& problems) {
  const std::string shown = path.generic_string();
  // One document through the bounded loader: YAML::LoadAll never returns on a stray top-level ','.
  YamlDocument document = load_yaml_document(yaml_text);
  if (!document.ok) {
    problems.push_back(rule_problem(shown, {document.line, document.column}, document.error));
    return std::nullopt;
  }
  if (document.root.IsNull()) {
    problems.push_back(rule_problem(shown, {}, "empty rule file"));
    return std::nullopt;
  }
  const YAML::Node root = document.root;
  try {
    std::optional<RuleSpec> spec = read_rule_spec(root, shown, problems);
    if (!spec) return std::nullopt;
    return compile_rule(*spec, path, problems);
  } catch (const YAML::Exception& e) {
    problems.push_back(rule_problem(shown, mark_pos(e.mark), "invalid rule: " + e.msg));
    return std::nullopt;
  }
}

LoadedRules load_rules(const std::vector<fs::path>& dirs) {
  LoadedRules out;
  std::vector<Rule> rules;
  std::map<std::string, std::string> first_definition;  // id -> "file:line:col"
  for (const fs::path& dir : dirs) {
    for (const fs::path& file : rule_files(dir, out.problems)) {
      const std::optional<std::string> text = read_file(file);
      if (!text) {
        out.problems.push_back(rule_problem(file.generic_string(), {}, "cannot read rule file"));
        continue;
      }
      std::optional<Rule> rule = load_rule_text(*text, file, out.problems);
      if (!rule) continue;
      const Pos at{rule->id_line, rule->id_column};
      const std::string where = file.generic_string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
      auto [it, inserted] = first_definition.emplace(rule->id, where);
      if (!inserted) {
        out.problems.push_back(rule_problem(
            file.generic_string(), at, "duplicate rule id '" + rule->id + "' (first defined at " + it->second + ")"));
        continue;
      }
      rule->source_dir = dir;
      rules.push_back(std::move(*rule));
    }
  }
  std::stable_sort(out.problems.begin(), out.problems.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.path, a.line, a.column) < std::tie(b.path, b.line, b.column);
  });
  out.rules = RuleSet(std::move(rules));
  return out;
}

}  // namespace tr2audit::rules
