// score/flip: what would change the verdict, computed by re-deciding with findings removed (the work
// done) or with the signals the verdict rests on taken away. Never a guess: every sentence is re-decided.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

constexpr std::size_t k_max_steps = 12;    // rule groups removed before giving up
constexpr std::size_t k_max_subjects = 3;  // subjects named per category action

struct Removal {
  std::vector<std::string> rule_ids;  // in removal order
  Decision after;
};

Findings without(const Findings& findings, const std::set<std::string>& rule_ids) {
  Findings out;
  for (const auto* f : findings) {
    if (!rule_ids.contains(f->rule_id)) out.push_back(f);
  }
  return out;
}

/// The rule id whose findings cost the most readiness, as the tally counts them (neuron signals never
/// count as work to remove). Not the plain sum of weights: forty low findings of standalone kernel
/// experiments are a few problems after the repeat decay, not forty times one.
std::optional<std::string> heaviest_rule(const Findings& findings, const ScoringPolicy& policy) {
  std::set<std::string> signals;
  for (const auto* f : findings) {
    if (is_neuron_signal(*f, policy)) signals.insert(f->rule_id);
  }
  std::optional<std::string> best;
  double best_weight = 0;
  for (const auto& [rule, penalty] : rule_penalties(findings, policy)) {
    if (penalty.penalty > best_weight && !signals.contains(rule)) best = rule, best_weight = penalty.penalty;
  }
  return best;
}

/// Removes rule groups (a deciding hard rule's first, else the one that costs the most readiness) until
/// `done` holds.
std::optional<Removal> remove_until(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy,
                                    const std::function<bool(const Decision&)>& done) {
  std::set<std::string> removed;
  Removal out;
  for (std::size_t step = 0; step <= k_max_steps; ++step) {
    const Findings current = without(findings, removed);
    out.after = decide(current, input, policy);
    if (done(out.after)) return out;
    std::vector<std::string> next;
    if (out.after.rule != nullptr) {  // a hard rule holds the verdict whatever readiness is: its findings first
      for (const auto* f : out.after.matched) next.push_back(f->rule_id);
    } else if (auto rule = heaviest_rule(current, policy)) {
      next.push_back(*rule);
    }
    if (next.empty()) return std::nullopt;
    for (auto& rule : next) {
      if (removed.insert(rule).second) out.rule_ids.push_back(rule);
    }
  }
  return std::nullopt;
}

std::string fmt_readiness(const Decision& d) {
  return std::to_string(static_cast<long>(std::floor(d.tally.readiness)));  // as Assessment::readiness
}

/// "Port fused_rope_cuda (kernels.py:12) to NKI; replace apex.optimizers.FusedAdam (train.py:40) ..."
std::string actions_text(const Findings& findings, const std::vector<std::string>& rule_ids,
                         const ScoringPolicy& policy) {
  std::vector<Category> order;
  std::map<Category, std::vector<std::string>> subjects;
  for (const auto& rule : rule_ids) {
    for (const auto* f : by_weight(findings, policy)) {
      if (f->rule_id != rule) continue;
      if (!subjects.contains(f->category)) order.push_back(f->category);
      auto& list = subjects[f->category];
      // The whole group goes: say how many places, so that porting one kernel is not read as the work.
      const auto places = static_cast<std::size_t>(
          std::count_if(findings.begin(), findings.end(), [&](const auto* g) { return g->rule_id == rule; }));
      const std::string subject =
          describe_code(*f) + (places > 1 ? " and " + std::to_string(places - 1) + " more like it" : "");
      if (std::find(list.begin(), list.end(), subject) == list.end()) list.push_back(subject);
      break;  // one subject per rule id: the heaviest place
    }
  }
  std::string text;
  for (Category category : order) {
    auto& list = subjects[category];
    std::string named;
    for (std::size_t i = 0; i < list.size() && i < k_max_subjects; ++i) named += (i ? ", " : "") + list[i];
    if (list.size() > k_max_subjects) named += " and " + std::to_string(list.size() - k_max_subjects) + " more";
    const auto it = policy.categories.find(category);
    std::string action =
        it != policy.categories.end() && !it->second.action.empty() ? it->second.action : "fix {subjects}";
    if (const auto at = action.find("{subjects}"); at != std::string::npos) action.replace(at, 10, named);
    text += (text.empty() ? "" : "; ") + action;
  }
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::optional<std::string> toward(const Findings& findings, const ScoreInput& input, const ScoringPolicy& policy,
                                  const std::function<bool(const Decision&)>& done) {
  const auto removal = remove_until(findings, input, policy, done);
  if (!removal || removal->rule_ids.empty()) return std::nullopt;
  return actions_text(findings, removal->rule_ids, policy) + ": the verdict becomes " +
         std::string(to_string(removal->after.verdict)) + " (readiness " + fmt_readiness(removal->after) + ").";
}

/// What would make a non-gpu-keep verdict gpu-keep, consistent with the findings: the first gpu-keep
/// hard rule with no matching finding is stated as a condition; one that already matches some findings
/// names them and says what is missing (or what overrides it), never "if X" when X is already there.
std::optional<std::string> downgrade_warning(const Decision& decision, const Findings& findings,
                                             const ScoringPolicy& policy) {
  for (const auto& rule : policy.hard_rules) {
    if (rule.verdict != Verdict::gpu_keep || !rule.when) continue;
    const Findings matched = matching(*rule.when, findings, policy);
    if (matched.empty()) return "The verdict becomes gpu-keep if " + rule.description + ".";
    const std::size_t kinds = distinct_rules(matched), problems = distinct_problems(matched);
    std::string named;
    std::set<std::string> seen;
    for (const auto* f : by_weight(matched, policy)) {
      if (seen.size() == k_max_subjects) break;
      if (counted_with_its_op(*f, matched)) continue;
      if (seen.insert(f->rule_id).second) named += (named.empty() ? "" : ", ") + describe_code(*f);
    }
    if (kinds >= rule.min_distinct_rules && problems >= rule.min_problems) {
      const std::string floor = decision.rule != nullptr ? " (" + decision.rule->id + " overrides it)" : "";
      return "Already present: " + named + "; " + rule.description + floor + ".";
    }
    const std::string missing = kinds < rule.min_distinct_rules
                                    ? std::to_string(rule.min_distinct_rules - kinds) + " more kind"
                                    : std::to_string(rule.min_problems - problems) + " more place";
    return "Already present: " + named + "; " + missing + " of the same (" + rule.description +
           ") would make the verdict gpu-keep.";
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> build_flip(const Decision& decision, const Findings& findings, const ScoreInput& input,
                                    const ScoringPolicy& policy) {
  std::vector<std::string> out;
  const Verdict now = decision.verdict;
  if (now == Verdict::gpu_keep) {
    if (auto s = toward(findings, input, policy, [](const Decision& d) { return d.verdict != Verdict::gpu_keep; })) {
      out.push_back(*s);
    }
  } else if (now == Verdict::dual_run) {
    if (auto s =
            toward(findings, input, policy, [](const Decision& d) { return d.verdict == Verdict::trainium2_pilot; })) {
      out.push_back(*s);
    }
  } else if (decision.rule != nullptr) {
    Findings rest;
    for (const auto* f : findings) {
      if (!is_neuron_signal(*f, policy)) rest.push_back(f);
    }
    const Decision after = decide(rest, input, policy);
    if (after.verdict != now) {
      out.push_back("Without the Neuron-targeting code the pilot rests on, the verdict would be " +
                    std::string(to_string(after.verdict)) + " (readiness " + fmt_readiness(after) + ").");
    }
  } else {
    out.push_back("Readiness " + fmt_readiness(decision) + " is " +
                  std::to_string(static_cast<long>(std::floor(decision.tally.readiness) - policy.pilot_min_readiness)) +
                  " points above the pilot threshold: more CUDA-specific or dynamic code on the training path would "
                  "make it dual-run.");
  }
  if (now != Verdict::gpu_keep) {
    if (auto warning = downgrade_warning(decision, findings, policy)) out.push_back(*warning);
  }
  return out;
}

}  // namespace tr2audit::score::detail
