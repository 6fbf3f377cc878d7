// score/engine: the scoring stage's internals shared by its files: weighing findings, tallying
// category penalties into readiness, deciding the verdict (hard rules, then thresholds), and the
// builders of reasons, flip, category scores and plan.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tr2audit/score/score.hpp"

namespace tr2audit::score::detail {

using Findings = std::vector<const rules::Finding*>;
inline constexpr std::size_t k_category_count = k_all_categories.size();

/// "path:line" of a finding (notebooks: "path:cell N:line").
std::string location_of(const rules::Finding& finding);
/// "`loss.item()` in `main`": the matched expression as written (cut cleanly), then its function.
std::string code_of(const rules::Finding& finding);
/// code_of plus " (path:line)".
std::string describe_code(const rules::Finding& finding);
/// The text cut to at most `max` bytes at a token boundary, with "…" when cut.
std::string cut_expression(const std::string& text, std::size_t max);
/// True when the finding takes part in scoring: not suppressed, not test code.
bool counts(const rules::Finding& finding);
/// True when a fallback guard (policy.fallback_guards) encloses the finding.
bool is_guarded(const rules::Finding& finding, const ScoringPolicy& policy);
/// severity × confidence × region × path × guard × error-region × category weight.
double finding_weight(const rules::Finding& finding, const ScoringPolicy& policy);
/// True when the finding satisfies every condition of the selector.
bool selects(const FindingSelector& selector, const rules::Finding& finding, const ScoringPolicy& policy);
/// The findings a selector picks, in input order.
Findings matching(const FindingSelector& selector, const Findings& findings, const ScoringPolicy& policy);
/// True for a call of a repo wrapper of an op (rules::Finding::wrapper) when `findings` also holds a finding in
/// that wrapper's body: the op's own. One op is one kind, however many wrappers reach it.
bool counted_with_its_op(const rules::Finding& finding, const Findings& findings);
/// The number of distinct rule ids among `findings`, a wrapper's call counted with its op's finding.
std::size_t distinct_rules(const Findings& findings);
/// One problem = one rule id in one enclosing function (module-level code: one statement).
std::string problem_key(const rules::Finding& finding);
/// Distinct problems among the findings.
std::size_t distinct_problems(const Findings& findings);
/// True when the rule id matches a neuron-signal glob of the policy.
bool is_neuron_signal(const rules::Finding& finding, const ScoringPolicy& policy);

/// A readiness cap that applied: how many distinct problems it selected, and the findings.
struct AppliedCap {
  const ReadinessCap* cap = nullptr;
  std::uint32_t problems = 0;
  Findings findings;
};

struct Tally {
  std::array<double, k_category_count> penalty{};  ///< after repeats, weight and cap
  std::array<std::uint32_t, k_category_count> counted{};
  std::uint32_t neuron_signal_rules = 0;
  double neuron_bonus = 0;
  double setup_bonus = 0;
  double total_penalty = 0;  ///< Σ capped category penalties
  double size_factor = 1;    ///< (1 + training lines / reference lines) ^ exponent
  std::vector<AppliedCap> caps;
  double readiness = 0;  ///< 0..100, unrounded
};
/// What one rule id's counted findings add to its category's penalty, before the category's cap.
struct RulePenalty {
  Category category = Category::cuda_api;
  double penalty = 0;  ///< Σ over its problems, heaviest first, of weight × decay^k (up to the repeat limit)
};
/// The penalty of every rule id with counted findings: the sums the tally adds per category.
std::map<std::string, RulePenalty> rule_penalties(const Findings& findings, const ScoringPolicy& policy);
/// Category penalties, bonuses and readiness of a set of counted findings.
Tally tally(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy);

struct Decision {
  Verdict verdict = Verdict::dual_run;
  Tally tally;
  const HardRule* rule = nullptr;  ///< the hard rule that decided, or nullptr (thresholds decided)
  Findings matched;                ///< the findings that made that hard rule hold
};
/// The verdict for a set of counted findings: the first hard rule that holds, else the thresholds.
Decision decide(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy);

/// The findings ordered by weight (heaviest first), ties in input order.
Findings by_weight(const Findings& findings, const ScoringPolicy& policy);
/// Human label of a category for sentences ("custom CUDA kernels and extensions").
std::string category_label(Category category);

std::vector<Reason> build_reasons(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                  const ScoringPolicy& policy);
std::vector<std::string> build_flip(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                    const ScoringPolicy& policy);
std::vector<CategoryScore> build_categories(const Tally& tally, const ScoringPolicy& policy);
std::vector<PlanStep> build_plan(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                 const ScoringPolicy& policy);
/// What the verdict rests on, grouped by rule id, most important first (at most 10).
std::vector<Driver> build_drivers(const Decision& decision, const Findings& findings, const ScoringPolicy& policy);
Confidence assess_confidence(const Decision& decision, const Findings& findings, const ScoreInput& input,
                             const ScoringPolicy& policy);

}  // namespace tr2audit::score::detail
