// Orderings and summaries shared by the Markdown and HTML reports.
#include <algorithm>

#include "renderers.hpp"

namespace tr2audit::report {

std::vector<const rules::Finding*> findings_by_severity(const Report& report) {
  std::vector<const rules::Finding*> out;
  for (const auto& finding : report.findings) {
    if (!finding.suppressed) out.push_back(&finding);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const rules::Finding* a, const rules::Finding* b) { return a->severity > b->severity; });
  return out;
}

std::string severity_counts_text(const Report& report) {
  const auto counts = count_by_severity(report);
  std::string out;
  for (Severity severity : k_all_severities) {
    const std::uint32_t count = counts.at(std::string(to_string(severity)));
    if (count == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + std::string(to_string(severity));
  }
  return out;
}

}  // namespace tr2audit::report
