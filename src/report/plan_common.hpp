// Private to report: what the pilot request's two renderers (plan_yaml.cpp, plan_markdown.cpp)
// derive from the report besides the pilot facts: the verdict line, the GPU fallback condition
// (from the verdict and the findings) and the default tolerances `tr2audit compare` checks.
#pragma once
#include <string>
#include <vector>

#include "tr2audit/report/report.hpp"

namespace tr2audit::report::plan {

inline constexpr std::string_view k_request_version = "1";

/// "trainium2-pilot (readiness 82, confidence medium)" or "no verdict (no Python code)".
std::string verdict_text(const Report& report);

/// The conditions under which the trial returns to GPU, most decisive first.
std::vector<std::string> fallback_conditions(const Report& report);

struct Tolerance {
  std::string_view name;
  double value;
  std::string_view meaning;
};
/// The tolerances the request proposes (inferred defaults the team is asked to confirm).
const std::vector<Tolerance>& default_tolerances();

}  // namespace tr2audit::report::plan
