#include "tr2audit/gate/report_edit.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace tr2audit::gate {
namespace {

void remap(std::vector<std::string>& ids, const std::map<std::string, std::string>& renamed) {
  for (auto& id : ids) {
    if (auto it = renamed.find(id); it != renamed.end()) id = it->second;
  }
}

void remap_assessment(score::Assessment& assessment, const std::map<std::string, std::string>& renamed) {
  for (auto& reason : assessment.reasons) remap(reason.finding_ids, renamed);
  for (auto& step : assessment.plan) remap(step.finding_ids, renamed);
}

}  // namespace

void renumber_findings(report::Report& report) {
  auto& findings = report.findings;
  std::stable_sort(findings.begin(), findings.end(), [](const rules::Finding& a, const rules::Finding& b) {
    return std::tie(a.path, a.at.line, a.at.column, a.rule_id, a.at.end_line, a.at.end_column) <
           std::tie(b.path, b.at.line, b.at.column, b.rule_id, b.at.end_line, b.at.end_column);
  });
  std::map<std::string, std::string> renamed;
  char id[32];
  for (std::size_t i = 0; i < findings.size(); ++i) {
    std::snprintf(id, sizeof id, "F%04zu", i + 1);
    if (!findings[i].id.empty() && findings[i].id != id) renamed.emplace(findings[i].id, id);
    findings[i].id = id;
  }
  if (renamed.empty()) return;
  if (report.recommendation) remap_assessment(*report.recommendation, renamed);
  for (auto& project : report.projects) remap_assessment(project, renamed);
}

void add_meta_rule_info(report::Report& report, std::string_view rule_id, std::string_view title, std::string_view why,
                        std::string_view fix) {
  const auto fired = std::find_if(report.findings.begin(), report.findings.end(),
                                  [&](const rules::Finding& f) { return f.rule_id == rule_id; });
  if (fired == report.findings.end()) return;
  const auto listed = std::find_if(report.rules.begin(), report.rules.end(),
                                   [&](const report::RuleInfo& r) { return r.id == rule_id; });
  if (listed != report.rules.end()) return;
  report::RuleInfo info;
  info.id = rule_id;
  info.title = title;
  info.category = to_string(fired->category);
  info.severity = to_string(fired->severity);
  info.confidence = to_string(fired->confidence);
  info.why = why;
  info.fix = fix;
  report.rules.push_back(std::move(info));
  std::sort(report.rules.begin(), report.rules.end(),
            [](const report::RuleInfo& a, const report::RuleInfo& b) { return a.id < b.id; });
}

}  // namespace tr2audit::gate
