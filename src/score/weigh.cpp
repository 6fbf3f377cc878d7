// score/weigh: per-finding weights, selectors, and the tally of category penalties into readiness.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "score/engine.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::score::detail {
namespace {

std::size_t index_of(Category category) {
  return static_cast<std::size_t>(category);
}

bool has_setup_value(const report::TrainingSetup& setup, const std::string& key) {
  const auto colon = key.find(':');
  const std::string field = key.substr(0, colon), value = key.substr(colon + 1);
  const std::map<std::string, const std::vector<report::SetupFact>*> fields{
      {"fine_tuning", &setup.fine_tuning}, {"model_family", &setup.model_family},   {"precision", &setup.precision},
      {"parallelism", &setup.parallelism}, {"checkpointing", &setup.checkpointing}, {"frameworks", &setup.frameworks}};
  const auto it = fields.find(field);
  if (it == fields.end()) return false;
  return std::any_of(it->second->begin(), it->second->end(), [&](const auto& fact) { return fact.value == value; });
}

/// Operators the target does not run as-is: one distinct op is one piece of work.
double operator_penalty(const report::OperatorSummary* ops, const ScoringPolicy& policy) {
  if (ops == nullptr) return 0;
  double sum = 0;
  for (const auto& op : ops->ops) {
    const auto it = policy.operator_weights.find(op.status);
    if (it == policy.operator_weights.end()) continue;
    const bool weak = op.inferred || op.method_only;
    sum += it->second * policy.confidence[static_cast<std::size_t>(weak ? Confidence::medium : Confidence::high)];
  }
  return sum;
}

/// gpu-keep < dual-run < trainium2-pilot.
int rank(Verdict verdict) {
  return verdict == Verdict::gpu_keep ? 0 : verdict == Verdict::dual_run ? 1 : 2;
}

Verdict threshold_verdict(double readiness, const ScoringPolicy& policy) {
  return readiness >= policy.pilot_min_readiness      ? Verdict::trainium2_pilot
         : readiness >= policy.dual_run_min_readiness ? Verdict::dual_run
                                                      : Verdict::gpu_keep;
}

}  // namespace

std::string location_of(const rules::Finding& finding) {
  if (finding.cell.cell != 0) {
    return finding.path + ":cell " + std::to_string(finding.cell.cell) + ":" + std::to_string(finding.cell.line);
  }
  return finding.path + ":" + std::to_string(finding.at.line);
}

bool counts(const rules::Finding& finding) {
  return !finding.suppressed && !finding.meta && !finding.off_training_path && finding.region != facts::Region::test;
}

bool is_guarded(const rules::Finding& finding, const ScoringPolicy& policy) {
  const std::vector<std::string> guards = rules::guard_names(finding.guards);
  return std::any_of(guards.begin(), guards.end(), [&](const std::string& guard) {
    return std::find(policy.fallback_guards.begin(), policy.fallback_guards.end(), guard) !=
           policy.fallback_guards.end();
  });
}

double finding_weight(const rules::Finding& finding, const ScoringPolicy& policy) {
  if (!counts(finding)) return 0;
  const bool guarded = is_guarded(finding, policy);
  Severity severity = finding.severity;
  if (guarded && policy.guarded_min_severity) severity = std::max(severity, *policy.guarded_min_severity);
  double weight = policy.severity[static_cast<std::size_t>(severity)] *
                  policy.confidence[static_cast<std::size_t>(finding.confidence)];
  const auto region = policy.region.find(std::string(finding.region_name()));
  weight *= region != policy.region.end() ? region->second : 1.0;
  for (const auto& [glob, factor] : policy.path_factors) {
    if (glob_match(glob, finding.path)) {
      weight *= factor;
      break;
    }
  }
  if (guarded) weight *= policy.guarded_factor;
  if (finding.in_error_region) weight *= policy.error_region_factor;
  if (!finding.training_reached) weight *= policy.unreached_factor;
  const auto category = policy.categories.find(finding.category);
  if (category != policy.categories.end()) weight *= category->second.weight;
  return weight;
}

bool selects(const FindingSelector& sel, const rules::Finding& finding, const ScoringPolicy& policy) {
  // Off the training path (inference, export, tooling), meta or suppressed findings never decide.
  if (finding.suppressed || finding.meta || finding.off_training_path) return false;
  if (!sel.categories.empty() &&
      std::find(sel.categories.begin(), sel.categories.end(), finding.category) == sel.categories.end()) {
    return false;
  }
  if (!sel.rules.empty() && std::none_of(sel.rules.begin(), sel.rules.end(),
                                         [&](const std::string& glob) { return glob_match(glob, finding.rule_id); })) {
    return false;
  }
  if (sel.min_severity && finding.severity < *sel.min_severity) return false;
  if (sel.min_confidence && finding.confidence < *sel.min_confidence) return false;
  if (!sel.regions.empty() &&
      std::find(sel.regions.begin(), sel.regions.end(), finding.region_name()) == sel.regions.end()) {
    return false;
  }
  if (sel.reached && !finding.training_reached) return false;
  return !(sel.unguarded && is_guarded(finding, policy));
}

std::string problem_key(const rules::Finding& finding) {
  // Module-level statements have no enclosing function: each is its own site.
  return finding.rule_id + '\n' + finding.path + '\n' +
         (finding.function.empty() ? "#" + std::to_string(finding.at.line) : finding.function);
}

std::size_t distinct_problems(const Findings& findings) {
  std::set<std::string> keys;
  for (const auto* finding : findings) keys.insert(problem_key(*finding));
  return keys.size();
}

Findings matching(const FindingSelector& selector, const Findings& findings, const ScoringPolicy& policy) {
  Findings out;
  for (const auto* finding : findings) {
    if (selects(selector, *finding, policy)) out.push_back(finding);
  }
  return out;
}

bool counted_with_its_op(const rules::Finding& finding, const Findings& findings) {
  return !finding.wrapper.empty() && std::any_of(findings.begin(), findings.end(), [&](const rules::Finding* other) {
    return other != &finding && other->wrapper.empty() && other->function == finding.wrapper;
  });
}

std::size_t distinct_rules(const Findings& findings) {
  std::set<std::string> ids;
  for (const auto* finding : findings) {
    if (!counted_with_its_op(*finding, findings)) ids.insert(finding->rule_id);
  }
  return ids.size();
}

bool is_neuron_signal(const rules::Finding& finding, const ScoringPolicy& policy) {
  // Neuron evidence counts on the training path and unguarded: a torch_xla import behind
  // is_torch_xla_available() is accelerator-agnostic code, inference-only Neuron code is not training.
  if (finding.suppressed || finding.meta || finding.off_training_path || is_guarded(finding, policy)) return false;
  return std::any_of(policy.neuron_signals.begin(), policy.neuron_signals.end(),
                     [&](const std::string& glob) { return glob_match(glob, finding.rule_id); });
}

Findings by_weight(const Findings& findings, const ScoringPolicy& policy) {
  // Each weight once (it globs the path): a comparator that weighed both sides costs n log n weighings.
  std::vector<std::pair<double, const rules::Finding*>> weighed;
  weighed.reserve(findings.size());
  for (const auto* finding : findings) weighed.emplace_back(finding_weight(*finding, policy), finding);
  std::stable_sort(weighed.begin(), weighed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  Findings out;
  out.reserve(weighed.size());
  for (const auto& [weight, finding] : weighed) out.push_back(finding);
  return out;
}

std::map<std::string, RulePenalty> rule_penalties(const Findings& findings, const ScoringPolicy& policy) {
  // One problem is one rule id in one function (its heaviest finding); the k-th heaviest problem of a
  // rule id counts decay^k, up to the limit: ten .item() calls in one loop are one piece of work.
  std::map<std::string, std::map<std::string, double>> per_rule;
  std::map<std::string, RulePenalty> out;
  for (const auto* finding : findings) {
    if (!counts(*finding)) continue;
    double& heaviest = per_rule[finding->rule_id][problem_key(*finding)];
    heaviest = std::max(heaviest, finding_weight(*finding, policy));
    out[finding->rule_id].category = finding->category;
  }
  for (const auto& [rule, problems] : per_rule) {
    std::vector<double> weights;
    for (const auto& [key, weight] : problems) weights.push_back(weight);
    std::sort(weights.begin(), weights.end(), std::greater<>());
    double factor = 1.0;
    double& sum = out[rule].penalty;
    for (std::size_t k = 0; k < weights.size() && k < policy.repeat_limit; ++k, factor *= policy.repeat_decay) {
      sum += weights[k] * factor;
    }
  }
  return out;
}

Tally tally(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy) {
  Tally out;
  std::array<double, k_category_count> raw{};
  std::set<std::string> signals;
  for (const auto* finding : findings) {
    if (!counts(*finding)) continue;
    ++out.counted[index_of(finding->category)];
    if (is_neuron_signal(*finding, policy)) signals.insert(finding->rule_id);
  }
  for (const auto& [rule, penalty] : rule_penalties(findings, policy))
    raw[index_of(penalty.category)] += penalty.penalty;
  raw[index_of(Category::operator_support)] += operator_penalty(input.operators, policy);
  for (Category category : k_all_categories) {
    const auto it = policy.categories.find(category);
    const double cap = it != policy.categories.end() ? it->second.cap : 100.0;
    out.penalty[index_of(category)] = std::min(cap, raw[index_of(category)]);
    out.total_penalty += out.penalty[index_of(category)];
  }
  out.neuron_signal_rules = static_cast<std::uint32_t>(signals.size());
  out.neuron_bonus = std::min(policy.neuron_bonus_cap, policy.neuron_bonus_per_rule * signals.size());
  if (input.setup != nullptr) {
    for (const auto& [key, points] : policy.setup_bonus) {
      if (has_setup_value(*input.setup, key)) out.setup_bonus += points;
    }
    out.setup_bonus = std::min(out.setup_bonus, policy.setup_bonus_cap);
  }
  // Porting work relative to the size of what trains: the same problems weigh less in a larger codebase.
  out.size_factor = std::pow(1.0 + input.training_lines / policy.reference_lines, policy.size_exponent);
  const double work = 100.0 * std::exp(-out.total_penalty / (policy.readiness_scale * out.size_factor));
  double readiness = std::min(100.0, work + out.neuron_bonus + out.setup_bonus);
  for (const auto& cap : policy.readiness_caps) {
    const Findings hit = matching(cap.select, findings, policy);
    const auto problems = static_cast<std::uint32_t>(distinct_problems(hit));
    if (problems == 0) continue;
    readiness *= cap.max / 100.0 * std::pow(cap.repeat, problems - 1.0);
    out.caps.push_back(AppliedCap{&cap, problems, hit});
  }
  out.readiness = std::clamp(readiness, 0.0, 100.0);
  return out;
}

namespace {

/// True when the hard rule holds; `matched` gets the findings that made `when` hold.
bool rule_holds(const HardRule& rule, const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy,
                Findings& matched) {
  matched.clear();
  if (rule.requires_training && !input.has_training_entry) return false;
  if (rule.when) {
    matched = matching(*rule.when, findings, policy);
    if (matched.empty() || distinct_rules(matched) < rule.min_distinct_rules) return false;
    if (distinct_problems(matched) < rule.min_problems) return false;
  }
  const bool setup_holds = std::all_of(rule.setup_requires.begin(), rule.setup_requires.end(), [&](const auto& group) {
    return input.setup != nullptr && std::any_of(group.begin(), group.end(), [&](const std::string& key) {
             return has_setup_value(*input.setup, key);
           });
  });
  return setup_holds && !(rule.unless && !matching(*rule.unless, findings, policy).empty());
}

/// A ceiling that holds over a better threshold verdict decides, unless a later rule that holds gives a
/// worse verdict still (a later floor that holds keeps the ceiling).
const HardRule* ceiling_outcome(std::size_t i, const Findings& findings, const ScoreInput& input,
                                const ScoringPolicy& policy, Findings& matched) {
  const HardRule& ceiling = policy.hard_rules[i];
  Findings later_matched;
  for (std::size_t j = i + 1; j < policy.hard_rules.size(); ++j) {
    const HardRule& later = policy.hard_rules[j];
    if (later.at_most || !rule_holds(later, findings, input, policy, later_matched)) continue;
    if (later.at_least) break;
    if (rank(later.verdict) < rank(ceiling.verdict)) {
      matched = later_matched;
      return &later;
    }
  }
  return &ceiling;
}

}  // namespace

Decision decide(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy) {
  Decision decision;
  decision.tally = tally(findings, input, policy);
  const Verdict by_threshold = threshold_verdict(decision.tally.readiness, policy);
  Findings matched;
  for (std::size_t i = 0; i < policy.hard_rules.size(); ++i) {
    const HardRule& rule = policy.hard_rules[i];
    if (!rule_holds(rule, findings, input, policy, matched)) continue;
    if (rule.at_most) {
      if (rank(by_threshold) <= rank(rule.verdict)) continue;  // the thresholds already meet the ceiling
      decision.matched = matched;
      decision.rule = ceiling_outcome(i, findings, input, policy, decision.matched);
      decision.verdict = decision.rule->verdict;
      return decision;
    }
    decision.rule = &rule;
    decision.matched = matched;
    if (!rule.at_least || rank(by_threshold) < rank(rule.verdict)) {
      decision.verdict = rule.verdict;
      return decision;
    }
    // A floor the thresholds already meet: it decides only if it overrode a later, worse hard rule.
    decision.verdict = by_threshold;
    for (std::size_t j = i + 1; j < policy.hard_rules.size(); ++j) {
      const HardRule& later = policy.hard_rules[j];
      if (rank(later.verdict) < rank(by_threshold) && rule_holds(later, findings, input, policy, matched)) {
        return decision;
      }
    }
    decision.rule = nullptr;
    decision.matched.clear();
    return decision;
  }
  decision.verdict = by_threshold;
  return decision;
}

}  // namespace tr2audit::score::detail
