// Test support for the score stage: hand-built findings and the shipped scoring policy.
#pragma once
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tr2audit/facts/facts_json.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/score/policy.hpp"
#include "tr2audit/score/score.hpp"

namespace tr2audit::testing {

/// The policy in rules/scoring.yaml (loaded once; the test fails loudly if it has problems).
inline const score::ScoringPolicy& shipped_policy() {
  static const score::LoadedPolicy loaded =
      score::load_policy(std::string(TR2AUDIT_SOURCE_DIR) + "/rules/scoring.yaml");
  if (!loaded.policy)
    FAIL("rules/scoring.yaml: " << (loaded.problems.empty() ? "" : format_problem(loaded.problems[0])));
  return *loaded.policy;
}

struct F {
  std::string rule_id;
  std::string region = "training-step";
  Severity severity = Severity::medium;
  std::string path = "train.py";
  std::uint32_t line = 1;
  std::string subject;
  std::vector<std::string> guards = {};
  Confidence confidence = Confidence::high;
  std::string function = "";
  bool reached = true;  ///< a training entry point reaches it (Finding::training_reached)
};

/// Builds findings with ids F0001... in the given order; the category comes from the rule id prefix.
inline std::vector<rules::Finding> findings_of(const std::vector<F>& specs) {
  std::vector<rules::Finding> out;
  for (const auto& s : specs) {
    rules::Finding f;
    f.id = "F" + std::string(4 - std::min<std::size_t>(4, std::to_string(out.size() + 1).size()), '0') +
           std::to_string(out.size() + 1);
    f.rule_id = s.rule_id;
    f.category = *parse_category(s.rule_id.substr(0, s.rule_id.find('.')));
    f.severity = s.severity;
    f.confidence = s.confidence;
    f.region = facts::parse_region(s.region);
    f.path = s.path;
    f.at.line = s.line;
    f.subject = s.subject.empty() ? s.rule_id.substr(s.rule_id.find('.') + 1) : s.subject;
    for (const auto& name : s.guards) {
      for (facts::Guard guard : facts::k_all_guards) {
        if (facts::to_string(guard) == name) f.guards |= facts::guard_bit(guard);
      }
    }
    f.function = s.function;
    f.training_reached = s.reached;
    out.push_back(std::move(f));
  }
  return out;
}

/// A setup in which a training loop was found (so confidence is not lowered for a missing loop).
inline report::TrainingSetup loop_setup() {
  report::TrainingSetup setup;
  setup.frameworks.push_back(report::SetupFact{"plain-pytorch", {"train.py:10"}});
  return setup;
}

inline score::Assessment assess_findings(const std::vector<rules::Finding>& findings,
                                         TargetProfile target = TargetProfile::native) {
  static const report::TrainingSetup setup = loop_setup();
  score::ScoreInput input;
  input.findings = findings;
  input.setup = &setup;
  input.target = target;
  input.files_scanned = 20;
  input.lines = 3000;
  return score::assess(input, shipped_policy());
}

}  // namespace tr2audit::testing
