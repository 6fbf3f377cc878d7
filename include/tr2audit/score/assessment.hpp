// score/assessment: the product's answer for one project: a verdict (gpu-keep, trainium2-pilot,
// dual-run), a readiness score with its confidence, the reasons (each tied to findings), what would
// flip the verdict, per-category sub-scores with effort estimates, and the migration plan.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/severity.hpp"

namespace tr2audit::score {

enum class Verdict { gpu_keep, trainium2_pilot, dual_run };
std::string_view to_string(Verdict verdict);  ///< "gpu-keep", "trainium2-pilot", "dual-run"
std::optional<Verdict> parse_verdict(std::string_view text);

struct Reason {
  std::string text;                      ///< one sentence a platform team can act on
  std::vector<std::string> finding_ids;  ///< "F0003", ...
};

struct PlanStep {
  std::string step;  ///< imperative: "Replace torch.cuda.amp.GradScaler ..."
  std::string why;
  std::vector<std::string> finding_ids;
  std::vector<std::string> locations;  ///< "path:line" of the code to change, in report order
  std::vector<std::string> probes;     ///< runtime checks that confirm the static finding
};

enum class Effort { none, low, medium, high };
std::string_view to_string(Effort effort);

struct CategoryScore {
  Category category = Category::cuda_api;
  std::uint32_t score = 100;   ///< 0..100, 100 = nothing to do
  std::uint32_t findings = 0;  ///< unsuppressed, non-test findings counted
  Effort effort = Effort::none;
  std::string engineer_days;  ///< "0", "1-3", "5-15", ...
};

struct Assessment {
  std::string project;  ///< "" for the whole repo, else the project folder ("examples/llama")
  Verdict verdict = Verdict::dual_run;
  std::uint32_t readiness = 0;  ///< 0..100
  Confidence confidence = Confidence::medium;
  std::vector<Reason> reasons;
  std::vector<std::string> flip;          ///< what would change the verdict, most effective first
  std::vector<CategoryScore> categories;  ///< in the contract's category order
  std::string effort_assumptions;         ///< what the engineer-day ranges assume
  std::vector<PlanStep> plan;             ///< in the decision guide's order
};

}  // namespace tr2audit::score
