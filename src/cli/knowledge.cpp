// cli/knowledge: loading the rule folders, operator table and scoring policy.
#include "cli/knowledge.hpp"

#include "cli/resources.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::cli {
namespace {

/// The scoring policy, after the bounded YAML loader accepted the file (score/ parses it again).
score::LoadedPolicy load_scoring(const std::filesystem::path& file) {
  const std::optional<std::string> text = read_file(file);
  const rules::YamlDocument checked = rules::load_yaml_document(text ? *text : std::string());
  if (text && checked.ok) return score::load_policy_text(*text, file.generic_string());
  score::LoadedPolicy refused;
  refused.problems.push_back(Problem{ProblemKind::invalid_config, file.generic_string(), checked.line, checked.column,
                                     text ? checked.error : "cannot read the scoring policy"});
  return refused;
}

}  // namespace

std::vector<std::filesystem::path> rule_folders(const std::vector<std::string>& extra) {
  std::vector<std::filesystem::path> dirs;
  if (auto builtin = builtin_rules_dir(); !builtin.empty()) dirs.push_back(builtin);
  for (const auto& dir : extra) dirs.emplace_back(dir);
  return dirs;
}

bool load_knowledge(Knowledge& out, std::vector<Problem>& problems) {
  const std::filesystem::path dir = builtin_rules_dir();
  std::error_code ec;
  if (dir.empty()) {
    // A binary copied away from its rules would otherwise scan with none and report a clean repo.
    problems.push_back(Problem{ProblemKind::invalid_config, "built-in rules", 0, 0,
                               "cannot find tr2audit's built-in rules (" + builtin_rules_search_note() +
                                   "): install it with `cmake --install`, or set TR2AUDIT_RULES_DIR to its "
                                   "rules folder"});
    return false;
  }
  if (std::filesystem::exists(dir / "neuron-ops.yaml", ec)) {
    rules::LoadedOpTable table = rules::OpTable::load(dir / "neuron-ops.yaml");
    problems.insert(problems.end(), table.problems.begin(), table.problems.end());
    out.op_table = std::move(table.table);
  }
  if (std::filesystem::exists(dir / "scoring.yaml", ec)) {
    score::LoadedPolicy policy = load_scoring(dir / "scoring.yaml");
    problems.insert(problems.end(), policy.problems.begin(), policy.problems.end());
    out.policy = std::move(policy.policy);
  }
  return problems.empty();
}

std::optional<ScanSetup> prepare_scan(const std::filesystem::path& path, const SettingsFlags& flags,
                                      std::vector<Problem>& problems) {
  ScanSetup setup;
  setup.settings = resolve_settings(path, flags, problems);
  if (!problems.empty()) return std::nullopt;
  rules::LoadedRules loaded = rules::load_rules(rule_folders(setup.settings.rules.value));
  if (!loaded.problems.empty()) {
    problems = std::move(loaded.problems);
    return std::nullopt;
  }
  setup.rules = gate::configure_rules(loaded.rules, setup.settings, problems);
  if (!problems.empty() || !load_knowledge(setup.knowledge, problems)) return std::nullopt;
  return setup;
}

}  // namespace tr2audit::cli
