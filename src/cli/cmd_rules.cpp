// `tr2audit rules list|explain|test|docs`: inspect, test and document the rule set. Rule load
// errors print as path:line:col: message and exit 2; `rules test` exits 1 when a fixture fails.
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/resources.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/fixture.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rules_doc.hpp"

namespace tr2audit::cli {
namespace {

namespace fs = std::filesystem;

struct RulesCommand {
  std::vector<std::string> rule_dirs;  ///< --rules (added to the built-in folder)
  std::string category;
  std::string format = "text";
  std::string rule_id;
  std::vector<std::string> test_dirs;  ///< `rules test DIR...` (replace the built-in folder)
  std::string fixtures;
  std::string output;
  std::string check;
};

/// Loads the rules; prints every problem and returns nullopt when there is any.
std::optional<rules::RuleSet> load(const std::vector<fs::path>& dirs) {
  if (dirs.empty()) {
    std::cerr << "tr2audit: rules: no rules folder found (set TR2AUDIT_RULES_DIR or pass --rules DIR)\n";
    return std::nullopt;
  }
  rules::LoadedRules loaded = rules::load_rules(dirs);
  if (loaded.problems.empty()) return std::move(loaded.rules);
  for (const Problem& problem : loaded.problems) std::cerr << format_problem(problem) << "\n";
  return std::nullopt;
}

std::vector<fs::path> default_dirs(const RulesCommand& cmd) {
  std::vector<fs::path> dirs;
  if (auto builtin = builtin_rules_dir(); !builtin.empty()) dirs.push_back(builtin);
  for (const std::string& dir : cmd.rule_dirs) dirs.emplace_back(dir);
  return dirs;
}

std::vector<std::string> rule_ids(const rules::RuleSet& set) {
  std::vector<std::string> ids;
  for (const rules::Rule& rule : set.rules()) ids.push_back(rule.id);
  return ids;
}

/// Prints "unknown rule 'x'; did you mean 'y'?" and returns the usage exit code.
int unknown_rule(std::string_view command, const std::string& id, const rules::RuleSet& set) {
  const std::string guess = suggest(id, rule_ids(set));
  std::cerr << "tr2audit: rules " << command << ": unknown rule '" << id << "'"
            << (guess.empty() ? "" : "; did you mean '" + guess + "'?") << "\n";
  return k_exit_usage;
}

std::string subject_summary(const rules::Rule& rule) {
  std::string out(rules::to_string(rule.subject));
  if (rule.subject == rules::SubjectKind::file) return out + " " + std::string(discover::to_string(rule.file_kind));
  for (std::size_t i = 0; i < rule.names.patterns().size(); ++i)
    out += (i == 0 ? " " : ", ") + rule.names.patterns()[i];
  return out;
}

nlohmann::ordered_json rule_json(const rules::Rule& rule) {
  nlohmann::ordered_json severity_by_profile = nlohmann::ordered_json::object();
  for (TargetProfile profile : k_all_profiles) {
    const auto& severity = rule.severity_by_profile[static_cast<std::size_t>(profile)];
    if (severity) severity_by_profile[std::string(to_string(profile))] = to_string(*severity);
  }
  nlohmann::ordered_json profiles = nlohmann::ordered_json::array();
  for (TargetProfile profile : k_all_profiles) {
    if (rule.applies_to(profile)) profiles.push_back(to_string(profile));
  }
  return {{"id", rule.id},
          {"title", rule.title},
          {"category", to_string(rule.category)},
          {"severity", to_string(rule.severity)},
          {"severity_by_profile", severity_by_profile},
          {"confidence", to_string(rule.confidence)},
          {"profiles", profiles},
          {"matches", subject_summary(rule)},
          {"sources", rule.sources}};
}

int run_list(const RulesCommand& cmd) {
  std::optional<Category> category;
  if (!cmd.category.empty() && !(category = parse_category(cmd.category))) {
    std::vector<std::string> names;
    for (Category c : k_all_categories) names.emplace_back(to_string(c));
    const std::string guess = suggest(cmd.category, names);
    std::cerr << "tr2audit: rules list: unknown category '" << cmd.category << "'"
              << (guess.empty() ? "" : "; did you mean '" + guess + "'?") << "\n";
    return k_exit_usage;
  }
  const auto set = load(default_dirs(cmd));
  if (!set) return k_exit_usage;
  std::vector<const rules::Rule*> shown;
  for (const rules::Rule& rule : set->rules()) {
    if (!category || rule.category == *category) shown.push_back(&rule);
  }
  if (cmd.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const rules::Rule* rule : shown) out.push_back(rule_json(*rule));
    std::cout << out.dump(2) << "\n";
    return k_exit_ok;
  }
  std::size_t width = 2;
  for (const rules::Rule* rule : shown) width = std::max(width, rule->id.size());
  for (const rules::Rule* rule : shown) {
    std::string severity(to_string(rule->severity));
    std::cout << rule->id << std::string(width + 2 - rule->id.size(), ' ') << severity
              << std::string(9 - std::min<std::size_t>(severity.size(), 8), ' ') << rule->title << "\n";
  }
  return k_exit_ok;
}

void print_block(std::ostream& out, std::string_view heading, std::string_view text) {
  out << "\n" << heading << ":\n";
  for (std::string_view line : split(text, '\n')) out << "  " << line << "\n";
}

int run_explain(const RulesCommand& cmd) {
  const auto set = load(default_dirs(cmd));
  if (!set) return k_exit_usage;
  const rules::Rule* rule = set->find(cmd.rule_id);
  if (rule == nullptr) return unknown_rule("explain", cmd.rule_id, *set);
  std::ostream& out = std::cout;
  out << rule->id << ": " << rule->title << "\n\n";
  out << "  category:    " << to_string(rule->category) << "\n";
  out << "  severity:    " << rules::severity_summary(*rule) << "\n";
  out << "  confidence:  " << to_string(rule->confidence) << "\n";
  out << "  profiles:    " << rules::profiles_summary(*rule) << "\n";
  out << "  matches:     " << subject_summary(*rule) << "\n";
  out << "  defined in:  " << rule->source_path.generic_string() << "\n";
  print_block(out, "Message", rule->message);
  print_block(out, "Why", rule->why);
  print_block(out, "Fix", rule->fix);
  if (!rule->example.empty()) print_block(out, "Example", rule->example);
  out << "\nSources:\n";
  for (const std::string& source : rule->sources) out << "  - " << source << "\n";
  return k_exit_ok;
}

/// The real extractor for fixtures: each fixture is discovered as a small repo (so kinds, test
/// paths and import origins are what a scan would see), then analysed file by file.
/// Fixture folders are scanned like small repos; `all` (every loaded rule) tells their program which
/// calls are GPU-only, so lock-in propagates in fixtures as in a scan.
rules::FactsProvider real_facts_provider(std::shared_ptr<const rules::RuleSet> all) {
  struct State {
    facts::Extractor extractor;
    std::map<fs::path, std::shared_ptr<const program::Program>> programs;
  };
  auto state = std::make_shared<State>();
  return [state, all](const rules::FixtureInput& input) {
    auto found = state->programs.find(input.fixture);
    if (found == state->programs.end()) {
      discover::DiscoveryOptions options;
      options.respect_gitignore = false;
      const discover::DiscoveryResult discovered = discover::discover(input.fixture, options);
      std::vector<facts::FileFacts> files;
      for (const discover::SourceFile& file : discovered.files)
        files.push_back(pipeline::analyze_file(file, state->extractor, options.max_file_size).facts);
      auto model = std::make_shared<const program::Program>(
          program::Program::build(std::move(files), false, rules::lockin_knowledge(*all, TargetProfile::native)));
      found = state->programs.emplace(input.fixture, std::move(model)).first;
    }
    return rules::FixtureFacts{found->second, found->second->find_file(input.rel_path)};
  };
}

int run_test(const RulesCommand& cmd) {
  std::vector<fs::path> dirs(cmd.test_dirs.begin(), cmd.test_dirs.end());
  if (dirs.empty()) dirs = default_dirs(cmd);
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    const fs::path fixtures = dir.parent_path() / "tests" / "rules";
    if (cmd.fixtures.empty() && !fs::is_directory(fixtures, ec)) {
      std::cerr << "tr2audit: rules test: no fixtures beside " << dir.generic_string() << " (looked for "
                << fixtures.generic_string() << "); pass --fixtures DIR or test a source tree: rules test rules\n";
      return k_exit_usage;
    }
  }
  const auto set = load(dirs);
  if (!set) return k_exit_usage;
  if (!cmd.rule_id.empty() && set->find(cmd.rule_id) == nullptr) return unknown_rule("test", cmd.rule_id, *set);
  rules::FixtureOptions options;
  options.fixtures_root = cmd.fixtures;
  options.only_rule = cmd.rule_id;
  // `op` rules look calls up in the operator table of the first rules folder that has one.
  std::optional<rules::OpTable> table;
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    if (table || !fs::exists(dir / "neuron-ops.yaml", ec)) continue;
    rules::LoadedOpTable loaded = rules::OpTable::load(dir / "neuron-ops.yaml");
    for (const Problem& problem : loaded.problems) std::cerr << "tr2audit: " << format_problem(problem) << "\n";
    if (!loaded.problems.empty()) return k_exit_usage;
    table = std::move(loaded.table);
  }
  options.op_table = table ? &*table : nullptr;
  const auto results =
      rules::run_fixtures(*set, options, real_facts_provider(std::make_shared<const rules::RuleSet>(*set)));
  std::cout << rules::format_fixture_results(results);
  for (const rules::FixtureResult& result : results) {
    if (!result.passed()) return k_exit_gate_failed;
  }
  return k_exit_ok;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

int run_docs(const RulesCommand& cmd) {
  const auto set = load(default_dirs(cmd));
  if (!set) return k_exit_usage;
  const std::string markdown = rules::render_rules_markdown(*set);
  if (!cmd.check.empty()) {
    const std::optional<std::string> current = read_file(cmd.check);
    if (current == markdown) return k_exit_ok;
    std::cerr << "tr2audit: rules docs: " << cmd.check << (current ? " is out of date" : " cannot be read")
              << "; regenerate it with `tr2audit rules docs -o " << cmd.check << "`\n";
    return k_exit_gate_failed;
  }
  if (cmd.output.empty() || cmd.output == "-") {
    std::cout << markdown;
    return k_exit_ok;
  }
  std::ofstream out(cmd.output, std::ios::binary);
  out << markdown;
  if (!out.flush()) {
    std::cerr << "tr2audit: rules docs: cannot write " << cmd.output << "\n";
    return k_exit_usage;
  }
  return k_exit_ok;
}

}  // namespace

void register_rules(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<RulesCommand>();
  CLI::App* rules_app = app.add_subcommand("rules", "List, explain, test and document the rules");
  rules_app->require_subcommand(1);
  rules_app->fallthrough();
  rules_app->add_option("--rules", cmd->rule_dirs, "Extra rule folder (repeatable)");

  CLI::App* list = rules_app->add_subcommand("list", "List the rules");
  list->add_option("--category", cmd->category, "Only rules of this category");
  list->add_option("--format", cmd->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  list->callback([cmd, &exit_code] { exit_code = run_list(*cmd); });

  CLI::App* explain = rules_app->add_subcommand("explain", "Explain one rule: what it flags, why, how to fix");
  explain->add_option("rule-id", cmd->rule_id, "Rule id, e.g. cuda-api.cuda-device-literal")->required();
  explain->callback([cmd, &exit_code] { exit_code = run_explain(*cmd); });

  CLI::App* test = rules_app->add_subcommand("test", "Run every rule over its annotated fixture");
  test->add_option("dirs", cmd->test_dirs, "Rule folders to test (default: the built-in rules and --rules)");
  test->add_option("--fixtures", cmd->fixtures, "Fixture root (default: <rules folder>/../tests/rules)");
  test->add_option("--rule", cmd->rule_id, "Only this rule");
  test->callback([cmd, &exit_code] { exit_code = run_test(*cmd); });

  CLI::App* docs = rules_app->add_subcommand("docs", "Generate the Markdown rule reference (docs/rules.md)");
  auto* output = docs->add_option("-o,--output", cmd->output, "Write to FILE (default: stdout)");
  docs->add_option("--check", cmd->check, "Exit 1 when FILE differs from the generated text")->excludes(output);
  docs->callback([cmd, &exit_code] { exit_code = run_docs(*cmd); });
}

}  // namespace tr2audit::cli
