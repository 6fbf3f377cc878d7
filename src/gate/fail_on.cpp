#include "tr2audit/gate/fail_on.hpp"

#include <algorithm>

#include "tr2audit/core/text.hpp"

namespace tr2audit::gate {
namespace {

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void check_findings(const report::Report& report, Severity threshold, GateResult& result) {
  std::size_t count = 0;
  std::string first;
  for (const auto& f : report.findings) {
    if (!report::is_gated(f) || f.severity < threshold) continue;
    if (count++ == 0) first = f.path + ":" + std::to_string(f.at.line) + " " + f.rule_id;
  }
  if (count == 0) return;
  if (result.status == GateStatus::passed) result.status = GateStatus::failed;
  result.reasons.push_back(plural(count, "finding") + " at or above " + std::string(to_string(threshold)) +
                           " (--fail-on " + std::string(to_string(threshold)) + "), first: " + first);
}

void check_recommendation(const report::Report& report, const FailOn& criteria, GateResult& result) {
  if (criteria.verdicts.empty() && !criteria.min_readiness) return;
  if (!report.recommendation) {
    result.status = GateStatus::incomplete;
    result.reasons.push_back(
        "the report has no recommendation (verdict/readiness were not computed), so "
        "--fail-on <verdict> / --min-readiness cannot be decided");
    return;
  }
  const score::Assessment& a = *report.recommendation;
  if (std::find(criteria.verdicts.begin(), criteria.verdicts.end(), a.verdict) != criteria.verdicts.end()) {
    if (result.status == GateStatus::passed) result.status = GateStatus::failed;
    result.reasons.push_back("the verdict is " + std::string(to_string(a.verdict)) + " (--fail-on " +
                             std::string(to_string(a.verdict)) + ")");
  }
  if (criteria.min_readiness && a.readiness < *criteria.min_readiness) {
    if (result.status == GateStatus::passed) result.status = GateStatus::failed;
    result.reasons.push_back("readiness " + std::to_string(a.readiness) + " is below --min-readiness " +
                             std::to_string(*criteria.min_readiness));
  }
}

}  // namespace

bool add_fail_on(FailOn& criteria, std::string_view value, std::string& error) {
  const std::string text = to_lower(trim(value));
  if (const auto severity = parse_severity(text)) {
    criteria.severity = criteria.severity ? std::min(*criteria.severity, *severity) : *severity;
    return true;
  }
  if (const auto verdict = score::parse_verdict(text)) {
    if (std::find(criteria.verdicts.begin(), criteria.verdicts.end(), *verdict) == criteria.verdicts.end())
      criteria.verdicts.push_back(*verdict);
    return true;
  }
  const std::vector<std::string> names{"blocker", "high",     "medium",          "low",
                                       "info",    "gpu-keep", "trainium2-pilot", "dual-run"};
  const std::string hint = suggest(text, names);
  error = "--fail-on '" + std::string(value) + "' is neither a severity (blocker, high, medium, low, info) nor a " +
          "verdict (gpu-keep, trainium2-pilot, dual-run)" + (hint.empty() ? "" : "; did you mean '" + hint + "'?");
  return false;
}

bool makes_scan_incomplete(const Problem& problem) {
  switch (problem.kind) {
    case ProblemKind::parse_timeout:
    case ProblemKind::too_deep:
    case ProblemKind::internal:
      return true;
    case ProblemKind::unreadable:
      return problem.path == "." || problem.message.find("scan root") != std::string::npos;
    default:
      return false;
  }
}

GateResult evaluate_gate(const report::Report& report, const FailOn& criteria) {
  GateResult result;
  for (const Problem& problem : report.problems) {
    if (!makes_scan_incomplete(problem)) continue;
    result.status = GateStatus::incomplete;
    result.reasons.push_back("incomplete scan: " + format_problem(problem));
  }
  if (criteria.severity) check_findings(report, *criteria.severity, result);
  check_recommendation(report, criteria, result);
  if (criteria.problems && !report.problems.empty()) {
    if (result.status == GateStatus::passed) result.status = GateStatus::failed;
    result.reasons.push_back(plural(report.problems.size(), "problem") + " (--fail-on-problems)");
  }
  return result;
}

}  // namespace tr2audit::gate
