#include "cli/settings_flags.hpp"

#include "tr2audit/gate/fail_on.hpp"

namespace tr2audit::cli {

void add_settings_flags(CLI::App* sub, SettingsFlags& flags) {
  flags.app = sub;
  sub->add_option("--config", flags.config,
                  "Read settings from FILE (default: .tr2audit.yaml or pyproject.toml "
                  "[tool.tr2audit], found by walking up from PATH)");
  sub->add_flag("--no-config", flags.no_config, "Ignore config files");
  sub->add_option("--target", flags.target, "Neuron stack to judge against: native (TorchNeuron, default) or xla");
  sub->add_option("--exclude", flags.excludes, "Gitignore-style glob to skip (repeatable; adds to the config's)");
  sub->add_option("--rules", flags.rule_dirs, "Extra rule folder (repeatable; adds to the config's)");
  sub->add_option("--fail-on", flags.fail_on,
                  "Fail (exit 1) on a finding at or above SEVERITY, or on a VERDICT (gpu-keep, ...); repeatable");
  sub->add_option("--min-readiness", flags.min_readiness, "Fail when the readiness score is below N (0-100)")
      ->check(CLI::Range(0, 100));
  sub->add_flag("--fail-on-problems", flags.fail_on_problems, "Fail when any file could not be read or parsed");
  sub->add_option("--max-file-size", flags.max_file_size, "Skip files larger than this many bytes (default 5 MiB)");
  sub->add_option("-j,--jobs", flags.jobs, "Worker threads (default: all cores)");
}

gate::Settings resolve_settings(const std::filesystem::path& root, const SettingsFlags& flags,
                                std::vector<Problem>& problems) {
  gate::Settings s;
  if (!flags.config.empty()) {
    gate::load_config(flags.config, s, problems);
  } else if (!flags.no_config) {
    if (auto found = gate::find_config(root)) gate::load_config(*found, s, problems);
  }
  const auto given = [&](const char* name) { return flags.app && flags.app->count(name) > 0; };
  const auto flag = [](const char* name, gate::Origin origin) {
    origin.flag = name;
    return origin;
  };
  if (given("--target")) s.target = {flags.target, gate::Origin{"", 0, "--target"}};
  if (given("--exclude")) {
    s.exclude.value.insert(s.exclude.value.end(), flags.excludes.begin(), flags.excludes.end());
    s.exclude.origin = flag("--exclude", s.exclude.origin);
  }
  if (given("--rules")) {
    s.rules.value.insert(s.rules.value.end(), flags.rule_dirs.begin(), flags.rule_dirs.end());
    s.rules.origin = flag("--rules", s.rules.origin);
  }
  if (given("--fail-on")) s.fail_on = {flags.fail_on, gate::Origin{"", 0, "--fail-on"}};
  if (given("--min-readiness")) s.min_readiness = {flags.min_readiness, gate::Origin{"", 0, "--min-readiness"}};
  if (given("--fail-on-problems")) s.fail_on_problems = {true, gate::Origin{"", 0, "--fail-on-problems"}};
  if (given("--max-file-size")) s.max_file_size = {flags.max_file_size, gate::Origin{"", 0, "--max-file-size"}};
  if (given("--jobs")) s.jobs = {flags.jobs, gate::Origin{"", 0, "--jobs"}};
  if (!parse_target_profile(s.target.value))
    problems.push_back(Problem{ProblemKind::invalid_config, "--target", 0, 0,
                               "unknown target '" + s.target.value + "' (expected native or xla)"});
  gate::FailOn check;
  for (const auto& value : s.fail_on.value) {
    std::string error;
    if (!gate::add_fail_on(check, value, error))
      problems.push_back(Problem{ProblemKind::invalid_config, s.fail_on.origin.describe(), 0, 0, error});
  }
  return s;
}

}  // namespace tr2audit::cli
