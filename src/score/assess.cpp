// score/assess: the stage's entry point; composes decide, reasons, flip, categories and plan.
#include <algorithm>
#include <cmath>

#include "score/engine.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/score/score.hpp"

namespace tr2audit::score {
namespace {

/// The policy with entry-aware path factors resolved for this project: a notebook that holds a training
/// entry point weighs like a script, and no notebook is down-weighted when the training is in notebooks.
ScoringPolicy resolve_entry_paths(const ScoreInput& input, const ScoringPolicy& policy) {
  ScoringPolicy out = policy;
  if (policy.entry_aware_paths.empty() || input.training_entry_paths.empty()) return out;
  const auto aware = [&](const std::string& path) {
    return std::any_of(policy.entry_aware_paths.begin(), policy.entry_aware_paths.end(),
                       [&](const std::string& glob) { return glob_match(glob, path); });
  };
  const bool elsewhere = std::any_of(input.training_entry_paths.begin(), input.training_entry_paths.end(),
                                     [&](const std::string& path) { return !aware(path); });
  if (!elsewhere) {
    std::erase_if(out.path_factors, [&](const auto& factor) {
      return std::find(policy.entry_aware_paths.begin(), policy.entry_aware_paths.end(), factor.first) !=
             policy.entry_aware_paths.end();
    });
    return out;
  }
  for (const std::string& path : input.training_entry_paths) {
    if (aware(path)) out.path_factors.insert(out.path_factors.begin(), {path, 1.0});
  }
  return out;
}

}  // namespace

Assessment assess(const ScoreInput& input, const ScoringPolicy& base_policy) {
  const ScoringPolicy policy = resolve_entry_paths(input, base_policy);
  detail::Findings findings;
  for (const auto& finding : input.findings) {
    if (detail::counts(finding)) findings.push_back(&finding);
  }
  const detail::Decision decision = detail::decide(findings, input, policy);
  Assessment out;
  out.project = input.project;
  out.verdict = decision.verdict;
  // Rounded down, as every report shows it: a shown 75 reaches a threshold of 75 exactly when the verdict does.
  out.readiness = static_cast<std::uint32_t>(std::floor(decision.tally.readiness));
  out.confidence = detail::assess_confidence(decision, findings, input, policy);
  out.reasons = detail::build_reasons(decision, findings, input, policy);
  out.flip = detail::build_flip(decision, findings, input, policy);
  out.categories = detail::build_categories(decision.tally, policy);
  out.effort_assumptions = policy.effort_assumptions;
  out.plan = detail::build_plan(decision, findings, input, policy);
  out.drivers = detail::build_drivers(decision, findings, policy);
  return out;
}

}  // namespace tr2audit::score
