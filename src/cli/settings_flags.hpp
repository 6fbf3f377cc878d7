// cli/settings_flags: the flags that may also come from a config file (scan and `config show` share
// them), and the merge: defaults < config file (found from the scan root, or --config) < flags.
#pragma once
#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/gate/config.hpp"

namespace tr2audit::cli {

struct SettingsFlags {
  std::string config;
  bool no_config = false;
  std::string target;
  std::vector<std::string> excludes, rule_dirs, fail_on;
  std::uint32_t min_readiness = 0;
  std::uint64_t max_file_size = 0;
  unsigned jobs = 0;
  bool fail_on_problems = false;
  CLI::App* app = nullptr;
};

/// Registers --config, --no-config, --target, --exclude, --rules, --fail-on, --min-readiness,
/// --fail-on-problems, --max-file-size, -j/--jobs on a subcommand.
void add_settings_flags(CLI::App* sub, SettingsFlags& flags);

/// The effective settings for a scan root; problems (exit 2) for a bad config file or flag value.
gate::Settings resolve_settings(const std::filesystem::path& root, const SettingsFlags& flags,
                                std::vector<Problem>& problems);

}  // namespace tr2audit::cli
