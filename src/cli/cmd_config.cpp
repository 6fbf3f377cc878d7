// `tr2audit config show [PATH]`: the effective scan settings for PATH (default ".") and where each
// came from: the default, a config file line, or a flag (the same flags as `scan`).
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/settings_flags.hpp"

namespace tr2audit::cli {
namespace {

struct ConfigShow {
  std::string path = ".";
  SettingsFlags settings;
};

std::string list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (const auto& v : values) out += (out.size() > 1 ? ", " : "") + v;
  return out + "]";
}

void row(const std::string& key, const std::string& value, const gate::Origin& origin) {
  std::cout << std::left << std::setw(18) << key << std::setw(34) << value << "  # " << origin.describe() << "\n";
}

int run_show(const ConfigShow& cmd) {
  std::vector<Problem> problems;
  const gate::Settings s = resolve_settings(cmd.path, cmd.settings, problems);
  for (const auto& problem : problems) std::cerr << "tr2audit: " << format_problem(problem) << "\n";
  if (!problems.empty()) return k_exit_usage;
  std::cout << "# config file: " << (s.config_file.empty() ? "none found" : s.config_file) << "\n";
  row("target", s.target.value, s.target.origin);
  row("exclude", list(s.exclude.value), s.exclude.origin);
  row("rules", list(s.rules.value), s.rules.origin);
  row("enable", s.enable.value.empty() ? "[all]" : list(s.enable.value), s.enable.origin);
  row("disable", list(s.disable.value), s.disable.origin);
  std::string overrides = "{";
  for (const auto& [id, severity] : s.severity.value)
    overrides += (overrides.size() > 1 ? ", " : "") + id + ": " + severity;
  row("severity", overrides + "}", s.severity.origin);
  row("fail-on", list(s.fail_on.value), s.fail_on.origin);
  row("min-readiness", s.min_readiness.value ? std::to_string(*s.min_readiness.value) : "none", s.min_readiness.origin);
  row("fail-on-problems", s.fail_on_problems.value ? "true" : "false", s.fail_on_problems.origin);
  row("max-file-size", std::to_string(s.max_file_size.value), s.max_file_size.origin);
  row("jobs", s.jobs.value ? std::to_string(s.jobs.value) : "0 (all cores)", s.jobs.origin);
  return k_exit_ok;
}

}  // namespace

void register_config(CLI::App& app, int& exit_code) {
  CLI::App* config = app.add_subcommand("config", "Show the effective settings (config file and flags)");
  config->require_subcommand(1);
  auto show = std::make_shared<ConfigShow>();
  CLI::App* sub =
      config->add_subcommand("show", "Print each setting and where it came from (default, file:line, flag)");
  sub->add_option("path", show->path, "The scan root whose config to show (default: .)");
  add_settings_flags(sub, show->settings);
  sub->callback([show, &exit_code] { exit_code = run_show(*show); });
}

}  // namespace tr2audit::cli
