// The parts of the pilot request that depend on the verdict and the findings.
#include "plan_common.hpp"

#include "renderers.hpp"

namespace tr2audit::report::plan {
namespace {

constexpr std::size_t k_max_ids = 6;

std::string blocking_ids(const Report& report) {
  std::string ids;
  std::size_t n = 0;
  for (const rules::Finding* finding : findings_by_severity(report)) {
    if (finding->off_training_path || finding->meta || finding->severity < Severity::high) continue;
    if (n++ == k_max_ids) {
      ids += ", ...";
      break;
    }
    ids += (ids.empty() ? "" : ", ") + finding->id;
  }
  return ids;
}

}  // namespace

std::string verdict_text(const Report& report) {
  if (!report.recommendation) return "no verdict (no Python code was scanned)";
  const score::Assessment& a = *report.recommendation;
  return std::string(score::to_string(a.verdict)) + " (readiness " + std::to_string(a.readiness) + ", confidence " +
         std::string(to_string(a.confidence)) + ")";
}

std::vector<std::string> fallback_conditions(const Report& report) {
  std::vector<std::string> out;
  if (report.recommendation && report.recommendation->verdict == score::Verdict::gpu_keep) {
    std::string why = report.recommendation->reasons.empty() ? "" : ": " + report.recommendation->reasons.front().text;
    out.push_back("stay on GPU now" + why);
    if (!report.recommendation->flip.empty())
      out.push_back("start the trial only after: " + report.recommendation->flip.front());
    return out;
  }
  if (const std::string ids = blocking_ids(report); !ids.empty())
    out.push_back("a blocker or high finding on the training path is not fixed before the trial (" + ids + ")");
  const pilot::CompileBurden& burden = report.pilot.burden;
  if (burden.bound == pilot::ShapeBound::unbounded)
    out.push_back("the number of graph compilations keeps growing after the first epoch (shapes are unbounded)");
  else if (burden.graphs > 0)
    out.push_back("more than " + std::to_string(burden.graphs * 2) +
                  " graph compilations per epoch (twice the estimate): shapes vary more than the code shows");
  out.push_back("the loss at matching steps differs from the GPU baseline by more than loss_relative");
  out.push_back("the run cannot resume from its last checkpoint with the loss continuing (resume_loss_jump)");
  out.push_back("cost per effective step is not below the GPU baseline's after compile time is counted");
  return out;
}

const std::vector<Tolerance>& default_tolerances() {
  static const std::vector<Tolerance> k_tolerances{
      {"loss_relative", 0.05, "inferred: |loss_trn2 - loss_gpu| / loss_gpu at each matching step"},
      {"resume_loss_jump", 0.10, "inferred: relative loss change across a restart (last step before vs first after)"},
      {"output_difference", 0.02, "inferred: relative difference of each final evaluation result"},
  };
  return k_tolerances;
}

}  // namespace tr2audit::report::plan
