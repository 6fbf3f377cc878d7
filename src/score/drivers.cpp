// score/drivers: what the verdict rests on, as one ranked list every renderer shows. The counted
// findings are grouped by rule id; groups that made the deciding hard rule hold or capped readiness
// come first, then the rest by the readiness points they cost (after repeats).
#include <algorithm>
#include <map>
#include <set>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

constexpr std::size_t k_max_drivers = 10;

/// "train.py:main" from "train.py:main → Trainer.train → step".
std::string entry_of(const rules::Finding& finding) {
  const std::string& chain = finding.reached_from;
  const auto arrow = chain.find(" → ");
  return arrow == std::string::npos ? chain : chain.substr(0, arrow);
}

}  // namespace

std::vector<Driver> build_drivers(const Decision& decision, const Findings& findings, const ScoringPolicy& policy) {
  std::set<std::string> deciding;
  for (const auto* f : decision.matched) deciding.insert(f->rule_id);
  for (const auto& applied : decision.tally.caps) {
    for (const auto* f : applied.findings) deciding.insert(f->rule_id);
  }
  std::map<std::string, Findings> groups;
  for (const auto* f : by_weight(findings, policy)) {
    if (finding_weight(*f, policy) > 0 || deciding.contains(f->rule_id)) groups[f->rule_id].push_back(f);
  }
  // The readiness points each rule costs, as the tally counts them (its penalty after repeats).
  const std::map<std::string, RulePenalty> penalties = rule_penalties(findings, policy);
  std::vector<Driver> out;
  for (const auto& [rule, group] : groups) {
    Driver d;
    d.rule_id = rule;
    d.category = group.front()->category;
    d.decides = deciding.contains(rule);
    const auto penalty = penalties.find(rule);
    d.penalty = penalty != penalties.end() ? penalty->second.penalty : 0.0;
    d.problems = static_cast<std::uint32_t>(distinct_problems(group));
    for (const auto* f : group) {
      d.severity = std::max(d.severity, f->severity);
      d.finding_ids.push_back(f->id);
      d.locations.push_back(location_of(*f));
    }
    d.code = code_of(*group.front());
    d.entry = entry_of(*group.front());
    out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const Driver& a, const Driver& b) {
    if (a.decides != b.decides) return a.decides;
    if (a.penalty != b.penalty) return a.penalty > b.penalty;
    return a.severity > b.severity;
  });
  if (out.size() > k_max_drivers) out.resize(k_max_drivers);
  return out;
}

}  // namespace tr2audit::score::detail
