#include "tr2audit/report/report.hpp"

namespace tr2audit::report {

std::map<std::string, std::uint32_t> count_by_category(const Report& report) {
  std::map<std::string, std::uint32_t> counts;
  for (Category category : k_all_categories) counts[std::string(to_string(category))] = 0;
  for (const auto& finding : report.findings) {
    if (!finding.suppressed) ++counts[std::string(to_string(finding.category))];
  }
  return counts;
}

std::map<std::string, std::uint32_t> count_by_severity(const Report& report) {
  std::map<std::string, std::uint32_t> counts;
  for (Severity severity : k_all_severities) counts[std::string(to_string(severity))] = 0;
  for (const auto& finding : report.findings) {
    if (!finding.suppressed) ++counts[std::string(to_string(finding.severity))];
  }
  return counts;
}

}  // namespace tr2audit::report
