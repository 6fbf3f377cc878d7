// score/score: the scoring stage. Findings (plus the operator summary and training-setup facts)
// and a ScoringPolicy go in; the Assessment comes out: verdict, readiness, confidence, reasons,
// flip, per-category scores with effort, and the migration plan. Pure and deterministic.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/report/operators.hpp"
#include "tr2audit/report/training_setup.hpp"
#include "tr2audit/rules/finding.hpp"
#include "tr2audit/score/assessment.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::score {

struct ScoreInput {
  std::span<const rules::Finding> findings;  ///< all findings of the project; suppressed ones are ignored
  const report::OperatorSummary* operators = nullptr;
  const report::TrainingSetup* setup = nullptr;
  TargetProfile target = TargetProfile::native;
  std::string project;             ///< "" = whole repo
  bool has_training_entry = true;  ///< the repository model found a training entry point (in this project)
  std::vector<std::string> training_entry_paths;  ///< the files that hold them (for entry_aware_paths)
  // Scan statistics, for the confidence (0 = unknown, then they do not lower it).
  std::uint32_t files_scanned = 0;
  std::uint32_t files_with_syntax_errors = 0;
  std::uint32_t lines = 0;
  std::uint32_t training_lines = 0;  ///< size of the training path (0: unknown, readiness is not normalised)
};

/// Scores one project: the verdict, readiness, reasons, flip, category scores and plan.
Assessment assess(const ScoreInput& input, const ScoringPolicy& policy);

}  // namespace tr2audit::score
