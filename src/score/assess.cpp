// score/assess: the stage's entry point; composes decide, reasons, flip, categories and plan.
#include <cmath>

#include "score/engine.hpp"
#include "tr2audit/score/score.hpp"

namespace tr2audit::score {

Assessment assess(const ScoreInput& input, const ScoringPolicy& policy) {
  detail::Findings findings;
  for (const auto& finding : input.findings) {
    if (detail::counts(finding)) findings.push_back(&finding);
  }
  const detail::Decision decision = detail::decide(findings, input, policy);
  Assessment out;
  out.project = input.project;
  out.verdict = decision.verdict;
  out.readiness = static_cast<std::uint32_t>(std::lround(decision.tally.readiness));
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
