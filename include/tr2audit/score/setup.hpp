// score/setup: training-setup facts (LoRA or full fine-tune, model family, precision, parallelism,
// checkpointing, frameworks) gathered from every file's FileFacts into one report::TrainingSetup.
// Call collect_setup for each file in any order, then finalize_setup once.
#pragma once
#include <functional>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/report/training_setup.hpp"

namespace tr2audit::score {

/// Where a training run reaches the code at a context (Program::training_reached).
using TrainingPath = std::function<bool(const facts::Context&)>;

/// Adds the setup facts one file shows (test files are skipped) with "path:line" evidence: to `setup` when
/// `on_training_path` holds where the evidence sits (or is not given), else to `elsewhere`.
void collect_setup(const facts::FileFacts& file, report::TrainingSetup& setup, report::TrainingSetup& elsewhere,
                   const TrainingPath& on_training_path);
void collect_setup(const facts::FileFacts& file, report::TrainingSetup& setup);

/// Sorts values and evidence, merges duplicate values and keeps at most 3 evidence entries per value,
/// so the result does not depend on the order files were collected in. Derives "plain-pytorch" and
/// "custom" only when nothing more specific was found. With `training_path_known` (the repo has a training
/// entry point), the facts `elsewhere` shows are dropped: an export script's or a test's `from_pretrained`
/// does not make a from-scratch run a fine-tune, and a chat demo's is no evidence of how the run trains.
/// Without one, they fill the fields the training path leaves empty and add places, after the path's own,
/// to the values it shows.
void finalize_setup(report::TrainingSetup& setup, report::TrainingSetup elsewhere = {},
                    bool training_path_known = false);

}  // namespace tr2audit::score
