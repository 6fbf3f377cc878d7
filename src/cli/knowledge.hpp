// cli/knowledge: what every scanning command loads before it scans: the rule folders (built-in plus
// --rules), the Neuron operator table and the scoring policy. Shared by `scan` and `plan`.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/settings_flags.hpp"
#include "tr2audit/core/problem.hpp"
#include "tr2audit/gate/config.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::cli {

/// The built-in rules folder followed by the extra folders given.
std::vector<std::filesystem::path> rule_folders(const std::vector<std::string>& extra);

/// The built-in operator table and scoring policy (either may be absent: no operator summary / verdict).
struct Knowledge {
  std::optional<rules::OpTable> op_table;
  std::optional<score::ScoringPolicy> policy;
};

/// Loads both from the built-in rules folder; false with problems when a file is invalid.
bool load_knowledge(Knowledge& out, std::vector<Problem>& problems);

/// What a scan of a path is judged with.
struct ScanSetup {
  gate::Settings settings;  ///< defaults < config file < flags
  rules::RuleSet rules;     ///< the rule folders' rules, configured (enabled, disabled, severities)
  Knowledge knowledge;
};

/// Resolves the settings for `path`, loads and configures the rules and loads the knowledge; nullopt
/// with the problems when any of them is invalid.
std::optional<ScanSetup> prepare_scan(const std::filesystem::path& path, const SettingsFlags& flags,
                                      std::vector<Problem>& problems);

}  // namespace tr2audit::cli
