// cli/knowledge: what every scanning command loads before it scans: the rule folders (built-in plus
// --rules), the Neuron operator table and the scoring policy. Shared by `scan` and `plan`.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/rules/op_table.hpp"
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

}  // namespace tr2audit::cli
