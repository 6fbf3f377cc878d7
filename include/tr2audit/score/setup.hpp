// score/setup: training-setup facts (LoRA or full fine-tune, model family, precision, parallelism,
// checkpointing, frameworks) gathered from every file's FileFacts into one report::TrainingSetup.
// Call collect_setup for each file in any order, then finalize_setup once.
#pragma once
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/report/training_setup.hpp"

namespace tr2audit::score {

/// Adds the setup facts one file shows (test files are skipped) with "path:line" evidence.
void collect_setup(const facts::FileFacts& file, report::TrainingSetup& setup);

/// Sorts values and evidence, merges duplicate values and keeps at most 3 evidence entries per value,
/// so the result does not depend on the order files were collected in. Derives "plain-pytorch" and
/// "custom" only when nothing more specific was found.
void finalize_setup(report::TrainingSetup& setup);

}  // namespace tr2audit::score
