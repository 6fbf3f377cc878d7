// The verdict's drivers as renderers use them: the assessment's ranked list (score/drivers), each with
// its findings resolved. Markdown and HTML lead with them ("top findings" are the drivers, not the first
// N by severity and path), as the text report and the JSON `recommendation.drivers` do.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "renderers.hpp"

namespace tr2audit::report {

std::vector<Driver> drivers(const Report& report) {
  if (!report.recommendation) return {};
  std::map<std::string_view, const rules::Finding*> by_id;
  for (const auto& f : report.findings) by_id.emplace(f.id, &f);
  std::vector<Driver> out;
  // The assessment ranked them (score/drivers): every renderer shows the same list in the same order.
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

std::vector<const rules::Finding*> distinct_places(const Driver& driver) {
  std::vector<const rules::Finding*> out;
  std::set<std::pair<std::string_view, std::uint32_t>> seen;
  for (const rules::Finding* f : driver.findings) {
    if (seen.emplace(f->path, f->at.line).second) out.push_back(f);
  }
  return out;
}

}  // namespace tr2audit::report
