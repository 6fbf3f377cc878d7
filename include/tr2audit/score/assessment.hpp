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

/// The findings the verdict rests on, grouped by rule id and ranked: first the rule ids that made the
/// deciding hard rule hold or capped readiness, then by how many readiness points they cost. Every
/// renderer shows "what drives the verdict" from this one list.
struct Driver {
  std::string rule_id;
  Category category = Category::cuda_api;
  Severity severity = Severity::info;    ///< the group's highest severity
  bool decides = false;                  ///< part of the deciding hard rule or of a readiness cap
  double penalty = 0;                    ///< the rule's penalty after repeats (before category caps)
  std::uint32_t problems = 0;            ///< distinct problems (rule id × enclosing function)
  std::vector<std::string> finding_ids;  ///< every counted finding of the rule, heaviest first
  std::vector<std::string> locations;    ///< "path:line" of those findings, same order
  std::string code;                      ///< what the heaviest finding names: "`.item()` on `loss` in `main`"
  std::string entry;                     ///< the entry point that reaches the heaviest finding, or ""
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
  std::vector<Driver> drivers;            ///< what the verdict rests on, most important first (at most 10)
};

}  // namespace tr2audit::score
