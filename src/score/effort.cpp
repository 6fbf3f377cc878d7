// score/effort: per-category sub-scores with an effort level and engineer-day range, and the
// confidence of the verdict.
#include <cmath>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

Effort effort_for(double penalty, const ScoringPolicy& policy) {
  Effort level = Effort::none;
  for (Effort candidate : {Effort::low, Effort::medium, Effort::high}) {
    const auto it = policy.effort_min_penalty.find(candidate);
    if (it != policy.effort_min_penalty.end() && penalty >= it->second && penalty > 0) level = candidate;
  }
  return level;
}

Confidence lower(Confidence c) {
  return c == Confidence::high ? Confidence::medium : Confidence::low;
}

}  // namespace

std::vector<CategoryScore> build_categories(const Tally& tally, const ScoringPolicy& policy) {
  std::vector<CategoryScore> out;
  for (Category category : k_all_categories) {
    const std::size_t i = static_cast<std::size_t>(category);
    CategoryScore score;
    score.category = category;
    score.findings = tally.counted[i];
    const auto it = policy.categories.find(category);
    const double cap = it != policy.categories.end() ? it->second.cap : 100.0;
    const double penalty = tally.penalty[i];
    score.score = cap > 0 ? static_cast<std::uint32_t>(std::lround(100.0 * (1.0 - penalty / cap))) : 100u;
    score.effort = effort_for(penalty, policy);
    score.engineer_days = "0";
    if (score.effort != Effort::none && it != policy.categories.end()) {
      const auto days = it->second.days.find(score.effort);
      if (days != it->second.days.end()) score.engineer_days = days->second;
    }
    out.push_back(std::move(score));
  }
  return out;
}

Confidence assess_confidence(const Decision& decision, const Findings& findings, const ScoreInput& input,
                             const ScoringPolicy& policy) {
  Confidence confidence = Confidence::high;
  double total = 0, weak = 0;
  for (const auto* f : findings) {
    const double w = finding_weight(*f, policy);
    total += w;
    if (f->confidence == Confidence::low || f->in_error_region) weak += w;
  }
  if (total > 0 && weak / total > policy.low_confidence_share) confidence = lower(confidence);
  if (input.files_scanned > 0 &&
      static_cast<double>(input.files_with_syntax_errors) / input.files_scanned > policy.syntax_error_share) {
    confidence = lower(confidence);
  }
  const bool tiny = input.lines > 0 && input.lines < policy.tiny_repo_lines;
  const bool no_loop = input.setup != nullptr && input.setup->frameworks.empty();
  if (tiny || no_loop) confidence = lower(confidence);
  // A verdict that rests on training-setup facts alone (no finding) is a judgement, not a measurement.
  if (decision.rule != nullptr && !decision.rule->when) confidence = lower(confidence);
  if (decision.rule == nullptr) {
    const double r = decision.tally.readiness;
    const bool borderline = std::abs(r - policy.pilot_min_readiness) < policy.borderline_margin ||
                            std::abs(r - policy.dual_run_min_readiness) < policy.borderline_margin;
    if (borderline) confidence = lower(confidence);
  }
  return confidence;
}

}  // namespace tr2audit::score::detail
