// pilot: the pilot request a platform team asks for before a first Trainium2 trial, filled from what
// the scan already knows (every file's facts, the repository model, the training setup and the
// findings) plus the repo's YAML/JSON config files read through the bounded YAML loader. Each field
// carries its value and where it was found, or a hint on what to fill in. The verdict, the GPU
// fallback condition and the plan steps come from the assessment when the request is rendered
// (report/plan.cpp), so suppressions and re-scoring are reflected.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/program/program.hpp"
#include "tr2audit/report/training_setup.hpp"
#include "tr2audit/rules/finding.hpp"

namespace tr2audit::pilot {

/// The fields of the pilot request filled from code, in the order the request lists them.
enum class Field : std::uint8_t {
  model,
  method,
  input_length,
  batch,
  expected_steps,
  save_interval,
  eval_metric,
  precision,
  parallelism,
};
inline constexpr std::size_t k_field_count = 9;
static_assert(static_cast<std::size_t>(Field::parallelism) + 1 == k_field_count, "k_field_count must match Field");
std::string_view to_string(Field field);  ///< "model", "method", "input_length", ...

/// One value a field has in the code: `4 (micro_batch_size)` at `finetune.py:28`.
struct Evidence {
  std::string name;   ///< the setting or call that holds it ("per_device_train_batch_size", "LoraConfig")
  std::string value;  ///< its value as written, a resolved name's literal when one was found
  std::string where;  ///< "path:line"
};

struct FieldValue {
  Field field = Field::model;
  std::vector<Evidence> found;  ///< most specific first, capped; empty = not found
  std::string hint;             ///< what to fill in when nothing was found (always set)
};

/// One YAML/JSON file of the repo, as the pipeline loaded it (bounded by discovery).
struct ConfigText {
  std::string path;
  std::string text;
};

enum class ShapeBound : std::uint8_t { fixed, bucketed, bounded, unbounded, unknown };
std::string_view to_string(ShapeBound bound);

/// How many distinct input shapes (hence graph compilations) one epoch produces.
struct CompileBurden {
  ShapeBound bound = ShapeBound::unknown;
  std::optional<std::uint32_t> max_length;      ///< the input length the request found
  std::optional<std::uint32_t> pad_multiple;    ///< pad_to_multiple_of, when set
  std::uint32_t sequence_shapes = 0;            ///< distinct sequence lengths per epoch (0 = unknown/unbounded)
  std::uint32_t batch_shapes = 0;               ///< 1, or 2 with a ragged last batch (0 = unknown)
  std::uint32_t graphs = 0;                     ///< sequence_shapes x batch_shapes x graphs per step (0 = unbounded)
  std::vector<std::string> sources;             ///< "rule-id at path:line" of each shape source
  std::vector<std::string> assumptions;         ///< what the estimate assumes
  std::vector<std::uint32_t> proposed_buckets;  ///< pad targets that cap the count (multiples of 128)
  std::string summary;                          ///< one sentence
};

enum class CheckStatus : std::uint8_t { pass, fail, unknown };
std::string_view to_string(CheckStatus status);

/// A platform check the trial's fixed rules need (pinned container and Neuron version, compile cache,
/// checkpoint and resume, step and recovery logging).
struct PlatformCheck {
  std::string id;  ///< "neuron-version-pinned", "container-base", "compile-cache", "checkpoint-resume", "step-logging"
  CheckStatus status = CheckStatus::unknown;
  std::string detail;              ///< what was found, or what is missing
  std::vector<std::string> where;  ///< "path:line", capped
};

/// What the training code already logs that the comparison record asks for.
struct LoggedField {
  std::string record_field;        ///< "loss", "step", "eval", "learning_rate", "throughput", "checkpoint"
  std::vector<std::string> where;  ///< empty = not logged yet
};

struct PilotFacts {
  std::vector<FieldValue> fields;  ///< one per Field, in Field order
  CompileBurden burden;
  std::vector<PlatformCheck> checks;
  std::vector<LoggedField> logged;
  std::vector<std::string> configs_read;  ///< config files that gave at least one setting
};

struct PilotInput {
  const program::CodeRoles& program;
  const std::vector<ConfigText>& configs;
  const report::TrainingSetup& setup;
  const std::vector<rules::Finding>& findings;
};

/// Fills the pilot request's code-side fields, the compile-burden estimate and the platform checks.
PilotFacts build(const PilotInput& input);

}  // namespace tr2audit::pilot
