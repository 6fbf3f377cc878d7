// The verdict's drivers as renderers use them: the assessment's ranked list (score/drivers), each with
// its findings resolved. Markdown and HTML lead with them ("top findings" are the drivers, not the first
// N by severity and path), as the text report and the JSON `recommendation.drivers` do.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "renderers.hpp"

namespace tr2audit::report {

namespace {

/// The assessment's ranked drivers (score/drivers) with their findings resolved.
std::vector<Driver> ranked_drivers(const Report& report,
                                   const std::map<std::string_view, const rules::Finding*>& by_id) {
  std::vector<Driver> out;
  for (const score::Driver& ranked : report.recommendation->drivers) {
    Driver driver{ranked.rule_id, ranked.severity, nullptr, {}};
    for (const std::string& id : ranked.finding_ids) {
      const auto it = by_id.find(id);
      if (it != by_id.end() && !it->second->suppressed) driver.findings.push_back(it->second);
    }
    if (driver.findings.empty()) continue;
    driver.cited = driver.findings.front();
    out.push_back(std::move(driver));
    if (out.size() == k_max_drivers) break;
  }
  return out;
}

/// For an assessment that ranked none (a report built elsewhere): the findings the reasons cite, grouped
/// by rule with every other active finding of that rule on the same side of the training path.
std::vector<Driver> cited_drivers(const Report& report,
                                  const std::map<std::string_view, const rules::Finding*>& by_id) {
  std::vector<Driver> out;
  std::set<std::string> rules_seen;
  for (const auto& reason : report.recommendation->reasons) {
    for (const auto& id : reason.finding_ids) {
      const auto it = by_id.find(id);
      if (it == by_id.end() || it->second->suppressed || !rules_seen.insert(it->second->rule_id).second) continue;
      out.push_back(Driver{it->second->rule_id, it->second->severity, it->second, {it->second}});
    }
  }
  for (Driver& d : out) {
    for (const auto& f : report.findings) {
      if (&f == d.cited || f.suppressed || f.rule_id != d.rule_id || f.off_training_path != d.cited->off_training_path)
        continue;
      d.findings.push_back(&f);
      d.severity = std::max(d.severity, f.severity);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Driver& a, const Driver& b) {
    return std::make_tuple(b.severity, b.findings.size(), std::string_view(a.rule_id)) <
           std::make_tuple(a.severity, a.findings.size(), std::string_view(b.rule_id));
  });
  if (out.size() > k_max_drivers) out.resize(k_max_drivers);
  return out;
}

}  // namespace

std::vector<Driver> drivers(const Report& report) {
  if (!report.recommendation) return {};
  std::map<std::string_view, const rules::Finding*> by_id;
  for (const auto& f : report.findings) by_id.emplace(f.id, &f);
  // The assessment's ranking when it made one, so every renderer shows the list the text and JSON show.
  if (!report.recommendation->drivers.empty()) return ranked_drivers(report, by_id);
  return cited_drivers(report, by_id);
}

std::vector<const rules::Finding*> distinct_places(const Driver& driver) {
  std::vector<const rules::Finding*> out;
  std::set<std::pair<std::string_view, std::uint32_t>> seen;
  for (const rules::Finding* f : driver.findings) {
    if (seen.emplace(f->path, f->at.line).second) out.push_back(f);
  }
  return out;
}

}  // namespace tr2audit::report
