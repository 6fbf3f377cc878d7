// The verdict's drivers: the findings the recommendation's reasons cite, grouped by rule with every
// other active finding of that rule. Markdown and HTML lead with them ("top findings" are the drivers,
// not the first N by severity and path).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "renderers.hpp"

namespace tr2audit::report {

std::vector<Driver> drivers(const Report& report) {
  if (!report.recommendation) return {};
  std::map<std::string, const rules::Finding*> by_id;
  for (const auto& f : report.findings) by_id.emplace(f.id, &f);
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

std::vector<const rules::Finding*> distinct_places(const Driver& driver) {
  std::vector<const rules::Finding*> out;
  std::set<std::pair<std::string_view, std::uint32_t>> seen;
  for (const rules::Finding* f : driver.findings) {
    if (seen.emplace(f->path, f->at.line).second) out.push_back(f);
  }
  return out;
}

}  // namespace tr2audit::report
