// score/policy: the scoring model as typed data, loaded strictly from rules/scoring.yaml. Weights
// (severity × confidence × region × guard), per-rule repeat decay, per-category caps and effort,
// readiness bonuses, verdict thresholds, ordered hard rules and the migration-plan templates.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/score/assessment.hpp"

namespace tr2audit::score {

/// Selects findings for a hard rule or a plan step; an empty list means "any".
struct FindingSelector {
  std::vector<Category> categories;
  std::vector<std::string> rules;  ///< rule-id globs ("cuda-extension.*")
  std::optional<Severity> min_severity;
  std::optional<Confidence> min_confidence;
  std::vector<std::string> regions;  ///< region names ("forward", "training-step", ...)
  bool unguarded = false;            ///< only findings without a fallback guard (see ScoringPolicy::fallback_guards)
  bool reached = false;              ///< only findings a training entry point reaches (Finding::training_reached)
};

/// "If at least min_distinct_rules distinct rule ids match `when`, the training setup shows one value
/// of every `setup_requires` group and nothing matches `unless`, the verdict is `verdict`." Hard rules
/// are tried in file order; the first that holds decides.
struct HardRule {
  std::string id;
  std::string description;  ///< one sentence, used in reasons ("an unguarded blocker sits on the hot path")
  Verdict verdict = Verdict::gpu_keep;
  std::optional<FindingSelector> when;  ///< absent: the rule needs no finding
  std::uint32_t min_distinct_rules = 1;
  std::uint32_t min_problems = 1;  ///< distinct problems (rule id × enclosing function) `when` must match
  std::vector<std::vector<std::string>> setup_requires;  ///< all groups, any "field:value" within a group
  std::optional<FindingSelector> unless;
  bool at_least = false;           ///< the verdict is a floor: it decides only when the thresholds give a worse one
  bool at_most = false;            ///< the verdict is a ceiling: it decides only when the thresholds give a better one
  bool requires_training = false;  ///< holds only where a training entry point exists (a trainer, a backward)
};

/// "Each distinct problem the selector picks multiplies readiness: the first by max/100, every further
/// one by `repeat`." One unguarded blocker caps readiness without zeroing what the rest of the score says.
struct ReadinessCap {
  std::string id;
  std::string description;  ///< "unguarded blockers a training run reaches", for reasons
  FindingSelector select;
  double max = 100.0;   ///< readiness with one such problem never exceeds this
  double repeat = 1.0;  ///< multiplier per further problem
};

struct CategoryPolicy {
  double weight = 1.0;                 ///< multiplies every finding's penalty in this category
  double cap = 100.0;                  ///< the category's penalty never exceeds this
  std::string action;                  ///< flip verb phrase: "port {subjects} to NKI"
  std::map<Effort, std::string> days;  ///< engineer-days per effort level (low/medium/high)
};

/// One code-change step of the plan, emitted when its selector matches unsuppressed, non-test findings.
struct PlanTemplate {
  std::string id;
  FindingSelector select;
  std::string step_native, step_xla;  ///< imperative text per target profile ("" = same as native)
  std::string why;
  std::vector<std::string> probes_native, probes_xla;
};

struct ScoringPolicy {
  std::string version;
  std::array<double, 5> severity{};                          ///< indexed by Severity
  std::array<double, 3> confidence{};                        ///< indexed by Confidence
  std::map<std::string, double> region;                      ///< region name -> multiplier (test = 0)
  std::vector<std::pair<std::string, double>> path_factors;  ///< path glob -> multiplier; the first match applies
  /// Globs of path_factors (notebooks) that do not apply to a file holding a training entry point, nor at
  /// all when every training entry point lies in a file they match (the notebook is the training code).
  std::vector<std::string> entry_aware_paths;
  std::vector<std::string> fallback_guards;  ///< guard names that make a finding "guarded"
  double guarded_factor = 0.25;
  /// Guarded findings weigh at least as this severity before the guarded factor: the rules report
  /// guarded code at low severity, and the work behind a fallback is still work (nullopt: no floor).
  std::optional<Severity> guarded_min_severity;
  double error_region_factor = 0.5;
  double unreached_factor = 0.5;    ///< findings no training entry point reaches (in a repo that has some)
  double repeat_decay = 0.5;        ///< the k-th problem (rule id × function) of one rule id counts decay^k
  std::uint32_t repeat_limit = 4;   ///< problems beyond this add nothing
  double readiness_scale = 100.0;   ///< readiness = 100 × exp(−penalty / (scale × size factor))
  double reference_lines = 2000.0;  ///< size factor = (1 + training lines / reference_lines) ^ size_exponent
  double size_exponent = 0.5;
  std::vector<ReadinessCap> readiness_caps;
  std::map<Category, CategoryPolicy> categories;
  std::map<std::string, double> operator_weights;  ///< op status -> penalty per distinct op (operator-support)
  std::vector<std::string> neuron_signals;         ///< rule-id globs that mean "already targets Neuron"
  double neuron_bonus_per_rule = 4.0;
  double neuron_bonus_cap = 15.0;
  std::map<std::string, double> setup_bonus;  ///< "fine_tuning:lora" -> readiness points
  double setup_bonus_cap = 8.0;
  double pilot_min_readiness = 75.0;
  double dual_run_min_readiness = 35.0;
  std::vector<HardRule> hard_rules;
  std::map<Effort, double> effort_min_penalty;  ///< category penalty at or above which an effort level applies
  std::string effort_assumptions;
  double low_confidence_share = 0.4;    ///< above this share of low-confidence weight: confidence drops
  std::uint32_t tiny_repo_lines = 300;  ///< fewer scanned lines than this: confidence drops
  double syntax_error_share = 0.1;      ///< above this share of files with syntax errors: confidence drops
  double borderline_margin = 5.0;       ///< readiness this close to a threshold: confidence drops
  std::vector<PlanTemplate> plan;       ///< code-change steps, in the order they are emitted
};

struct LoadedPolicy {
  std::optional<ScoringPolicy> policy;  ///< set only when the file had no problem
  std::vector<Problem> problems;        ///< invalid_config, with path:line:column
};

/// Loads and validates rules/scoring.yaml; unknown keys get a "did you mean" suggestion. Never throws.
LoadedPolicy load_policy(const std::filesystem::path& scoring_yaml);
/// Same, from YAML text; `shown_path` names the file in problems.
LoadedPolicy load_policy_text(std::string_view yaml_text, const std::string& shown_path);

}  // namespace tr2audit::score
