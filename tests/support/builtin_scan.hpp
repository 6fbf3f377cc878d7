// A whole scan with the shipped rules, operator table and scoring policy, as the CLI runs it (one job:
// deterministic and cheap in tests). Shared by the pipeline tests that judge real-looking repos.
#pragma once
#include <catch2/catch.hpp>
#include <filesystem>

#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::testing {

inline report::Report scan_with_builtin_knowledge(const std::filesystem::path& root) {
  const std::filesystem::path rules_dir = std::filesystem::path(TR2AUDIT_SOURCE_DIR) / "rules";
  const rules::LoadedRules loaded = rules::load_rules({rules_dir});
  REQUIRE(loaded.problems.empty());
  const rules::LoadedOpTable table = rules::OpTable::load(rules_dir / "neuron-ops.yaml");
  REQUIRE(table.table);
  const score::LoadedPolicy policy = score::load_policy(rules_dir / "scoring.yaml");
  REQUIRE(policy.policy);
  pipeline::ScanOptions options;
  options.root = root;
  options.jobs = 1;
  return pipeline::scan(options, pipeline::Knowledge{loaded.rules, &*table.table, &*policy.policy});
}

}  // namespace tr2audit::testing
