// gate/config: the scan settings and where each came from. A `.tr2audit.yaml` (or `[tool.tr2audit]`
// in pyproject.toml) is found by walking up from the scan root to the work tree's top, or named with
// --config; command-line flags override it. Unknown keys and bad values are problems with
// file:line:col and a suggestion (the CLI exits 2 on any).
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::gate {

/// Where a setting's value came from: the default, a config file line, or a flag.
struct Origin {
  std::string file;  ///< config file path ("" for default/flag)
  std::uint32_t line = 0;
  std::string flag;  ///< "--fail-on" when given on the command line
  /// "default", "path:line" or "flag --x" (flag and file combined for lists that add up).
  std::string describe() const;
};

template <class T>
struct Setting {
  T value{};
  Origin origin;
};

struct Settings {
  Setting<std::string> target{"native"};
  Setting<std::vector<std::string>> exclude;
  Setting<std::vector<std::string>> rules;    ///< extra rule folders (config entries resolved against its folder)
  Setting<std::vector<std::string>> enable;   ///< ids or globs; empty = all rules
  Setting<std::vector<std::string>> disable;  ///< ids or globs
  Setting<std::map<std::string, std::string>> severity;  ///< id or glob -> severity name
  Setting<std::vector<std::string>> fail_on;
  Setting<std::optional<std::uint32_t>> min_readiness;
  Setting<bool> fail_on_problems{false};
  Setting<std::uint64_t> max_file_size{5ull * 1024 * 1024};
  Setting<unsigned> jobs{0};
  std::string config_file;  ///< the file read ("" when none)
};

/// The config file for a scan root: the nearest .tr2audit.yaml/.tr2audit.yml, or pyproject.toml with a
/// [tool.tr2audit] table, from root up to the folder holding .git (or the filesystem root).
std::optional<std::filesystem::path> find_config(const std::filesystem::path& scan_root);

/// Reads a config file into settings (YAML, or TOML when it is named *.toml). Errors become
/// invalid_config problems; settings keep what was valid.
void load_config(const std::filesystem::path& file, Settings& settings, std::vector<Problem>& problems);

/// Every key a config file may hold (for suggestions and docs).
const std::vector<std::string>& config_keys();

/// The rules with enable/disable/severity applied; unknown ids or globs that match nothing become problems.
rules::RuleSet configure_rules(const rules::RuleSet& rules, const Settings& settings, std::vector<Problem>& problems);

}  // namespace tr2audit::gate
