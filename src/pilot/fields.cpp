// pilot/fields: each field of the pilot request is a list of setting keys looked up in priority
// order, plus what the training setup and a few calls add (from_pretrained names, periodic
// checkpoint calls, evaluate.load metrics).
#include "pilot/fields.hpp"

#include <algorithm>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::pilot::detail {
namespace {

using facts::LiteralKind;
constexpr std::size_t k_max_evidence = 6;

struct FieldSpec {
  Field field;
  std::vector<std::string_view> keys;  ///< most specific first
  std::string_view hint;
};

const std::vector<FieldSpec>& specs() {
  static const std::vector<FieldSpec> k_specs{
      {Field::model,
       {"model_name_or_path", "base_model", "model_name", "model_id", "pretrained_model_name_or_path", "init_from",
        "model_type"},
       "name the model and its size (a Hugging Face id or the config class) and where its weights come from"},
      {Field::method,
       {"r", "lora_r", "lora_rank", "lora_alpha", "target_modules", "lora_target_modules", "finetuning_type"},
       "say whether this is LoRA/PEFT, a full fine-tune or pre-training"},
      {Field::input_length,
       {"max_seq_length", "max_seq_len", "seq_length", "seq_len", "max_length", "block_size", "cutoff_len",
        "sequence_length", "context_length", "max_source_length", "max_target_length", "max_len"},
       "give the maximum input length in tokens (and whether every batch is padded to it)"},
      {Field::batch,
       {"per_device_train_batch_size", "micro_batch_size", "train_micro_batch_size_per_gpu", "train_batch_size",
        "batch_size", "global_batch_size", "gradient_accumulation_steps", "gradient_accumulation_iters",
        "gradient_accumulation", "grad_accum", "drop_last", "packing", "group_by_length"},
       "give the per-device batch size, gradient accumulation, and whether the last partial batch is dropped"},
      {Field::expected_steps,
       {"max_steps", "max_iters", "train_iters", "total_steps", "num_training_steps", "num_train_epochs", "num_epochs",
        "max_epochs", "epochs"},
       "give the number of optimizer steps (or epochs x samples / global batch)"},
      {Field::save_interval,
       {"save_steps", "save_interval", "save_every", "save_every_n_steps", "checkpoint_every", "checkpoint_interval",
        "ckpt_interval", "save_freq", "checkpointing_steps", "save_strategy", "always_save_checkpoint"},
       "say how often a checkpoint is written (steps) and where; a resumable run needs one"},
      {Field::eval_metric,
       {"metric_for_best_model", "compute_metrics", "eval_steps", "eval_interval", "evaluation_strategy",
        "eval_strategy", "eval_iters", "eval_every"},
       "name the evaluation metric and the output difference from the GPU run you accept"},
      {Field::precision,
       {"mixed_precision", "precision", "bf16", "fp16", "torch_dtype", "dtype"},
       "give the training precision (bf16 is Trainium2's native training type)"},
      {Field::parallelism,
       {"tensor_parallel_size", "tensor_model_parallel_size", "tp_degree", "tp_size", "pipeline_parallel_size",
        "pipeline_model_parallel_size", "fsdp", "deepspeed", "zero_stage"},
       "none found: a single-device run is assumed; give data/tensor/pipeline parallel degrees if not"},
  };
  return k_specs;
}

bool useful(const Setting& setting) {
  return setting.kind != LiteralKind::none && setting.kind != LiteralKind::null && !setting.value.empty() &&
         setting.value != "None";
}

/// Keys that also mean other things elsewhere only count with a value that fits the field.
bool plausible(const Setting& setting) {
  const std::string value = to_lower(setting.value);
  const auto has = [&](std::string_view part) { return value.find(part) != std::string::npos; };
  if (setting.key == "r")
    return setting.source != Source::call_keyword || to_lower(setting.owner).find("lora") != std::string::npos;
  if (setting.key == "dtype" || setting.key == "torch_dtype" || setting.key == "precision" ||
      setting.key == "mixed_precision") {
    if (has("long") || has("int") || has("bool") || has("complex")) return false;
    return has("16") || has("32") || has("float") || has("half") || has("bf") || has("fp") || has("amp");
  }
  if (setting.key == "bf16" || setting.key == "fp16") return value != "false" && value != "0";
  return true;
}

/// The setting's value, names resolved to the literal they hold: "4 (micro_batch_size)".
Evidence evidence_of(const SettingTable& table, const Setting& setting) {
  Evidence ev{setting.key, setting.value, setting.where};
  if (setting.kind == LiteralKind::name) {
    if (const Setting* literal = resolve_name(table, setting.value)) {
      ev.value = literal->value + " (" + setting.value + ", " + literal->where + ")";
    } else {
      ev.value += " (computed or given at run time)";
    }
  }
  if (setting.kind == LiteralKind::string && setting.source != Source::config_file) ev.value = "\"" + ev.value + "\"";
  return ev;
}

/// The best setting of a key: a training call's keyword, then argparse, a parameter, an assignment, a config.
const Setting* best_setting(const SettingTable& table, std::string_view key) {
  const Setting* best = nullptr;
  table.for_key(key, [&](const Setting& setting) {
    if (!useful(setting) || !plausible(setting)) return;
    if (!best || static_cast<int>(setting.source) < static_cast<int>(best->source)) best = &setting;
  });
  return best;
}

/// A code default the chosen config value overrides (`max_steps: 2000` in YAML, `max_steps: int = 1000`
/// in the dataclass): shown too, since the run takes the config only when it loads that file.
const Setting* overridden_default(const SettingTable& table, const Setting& chosen) {
  if (chosen.source != Source::config_file) return nullptr;
  const Setting* other_config = nullptr;
  const Setting* code_default = nullptr;
  table.for_key(chosen.key, [&](const Setting& setting) {
    const bool literal = setting.kind != LiteralKind::name && setting.kind != LiteralKind::other;
    if (code_default || setting.source == Source::call_keyword || !literal || !useful(setting) || !plausible(setting) ||
        setting.value == chosen.value)
      return;
    if (setting.source != Source::config_file)
      code_default = &setting;
    else if (!other_config)
      other_config = &setting;
  });
  return code_default ? code_default : other_config;
}

void add(FieldValue& field, Evidence ev) {
  if (field.found.size() >= k_max_evidence) return;
  const bool seen = std::any_of(field.found.begin(), field.found.end(),
                                [&](const Evidence& e) { return e.name == ev.name && e.where == ev.where; });
  if (!seen) field.found.push_back(std::move(ev));
}

/// True when the file at "path:line" is only reached by inference, export, tooling or tests.
bool off_training(const program::CodeRoles& program, std::string_view where) {
  const std::size_t colon = where.find(':');
  const auto file = program.find_file(where.substr(0, colon));
  if (!file) return false;
  if (program.file(*file).is_test) return true;
  const program::RoleSet roles = program.roles(program::FunctionId{*file, -1});
  bool any_function_trains = (roles & program::training_roles()).any();
  const auto& functions = program.file(*file).functions;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(functions.size()) && !any_function_trains; ++i)
    any_function_trains = (program.roles(program::FunctionId{*file, i}) & program::training_roles()).any();
  bool any_roles = roles.any();
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(functions.size()) && !any_roles; ++i)
    any_roles = program.roles(program::FunctionId{*file, i}).any();
  return any_roles && !any_function_trains;
}

/// The training setup's values, each at its first place in training code (export scripts left out).
void add_setup(const program::CodeRoles& program, FieldValue& field, std::string_view name,
               const std::vector<report::SetupFact>& facts) {
  for (const auto& fact : facts) {
    for (const auto& where : fact.evidence) {
      if (off_training(program, where)) continue;
      add(field, Evidence{std::string(name), fact.value, where});
      break;
    }
  }
}

/// from_pretrained("...") of a model (not a tokenizer or config) in training code.
void model_loads(const PilotInput& input, const SettingTable& table, FieldValue& field) {
  const auto& files = input.program.files();
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    for (const auto& call : files[i].calls) {
      if (call.method != "from_pretrained" || call.args.empty()) continue;
      const std::string text = to_lower(call.callee_text);
      if (text.find("token") != std::string::npos || text.find("processor") != std::string::npos ||
          text.find("config") != std::string::npos || !on_training_side(input.program, program::FileId{i}, call.ctx))
        continue;
      const facts::Argument& arg = call.args.front();
      if (!arg.keyword.empty() && arg.keyword != "pretrained_model_name_or_path") continue;
      Setting as{std::string(call.callee_text), arg.value, arg.kind,
                 Source::call_keyword,          "",        where(files[i], call.at.line)};
      if (arg.kind == LiteralKind::string || arg.kind == LiteralKind::name) add(field, evidence_of(table, as));
    }
  }
}

/// Checkpoint writes in the training loop, or under an every-N-steps condition.
void checkpoint_calls(const PilotInput& input, FieldValue& field) {
  const auto& files = input.program.files();
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    for (const auto& call : files[i].calls) {
      const std::string callee = call.callee.dotted();
      const bool saves = callee == "torch.save" || callee == "torch_xla.core.xla_model.save" ||
                         call.method == "save_pretrained" || call.method == "save_checkpoint" ||
                         call.method == "save_state" || call.method == "save_model";
      if (!saves || files[i].is_test) continue;
      const auto roles = input.program.roles_at(program::FileId{i}, call.ctx);
      const bool periodic = call.ctx.has(facts::Guard::periodic);
      const bool in_loop = call.ctx.loop >= 0 && files[i].loops[static_cast<std::size_t>(call.ctx.loop)].calls_backward;
      const bool from_loop = roles.test(static_cast<std::size_t>(program::Role::training_eval));
      if (!periodic && !in_loop && !from_loop) continue;
      const char* when = periodic  ? "every N steps (periodic condition)"
                         : in_loop ? "in the training loop"
                                   : "called periodically from the training loop";
      add(field, Evidence{call.callee_text, when, where(files[i], call.at.line)});
    }
  }
}

/// evaluate.load("accuracy") / datasets.load_metric("rouge").
void metric_loads(const PilotInput& input, FieldValue& field) {
  const auto& files = input.program.files();
  for (const auto& file : files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      const std::string callee = call.callee.dotted();
      if (callee != "evaluate.load" && callee != "datasets.load_metric") continue;
      if (!call.args.empty() && call.args[0].kind == LiteralKind::string)
        add(field, Evidence{callee, "\"" + call.args[0].value + "\"", where(file, call.at.line)});
    }
  }
}

void extras(const PilotInput& input, const SettingTable& table, FieldValue& value) {
  switch (value.field) {
    case Field::model:
      model_loads(input, table, value);
      add_setup(input.program, value, "family", input.setup.model_family);
      break;
    case Field::method:
      add_setup(input.program, value, "method", input.setup.fine_tuning);
      break;
    case Field::save_interval:
      checkpoint_calls(input, value);
      break;
    case Field::eval_metric:
      metric_loads(input, value);
      break;
    case Field::precision:
      add_setup(input.program, value, "precision", input.setup.precision);
      break;
    case Field::parallelism:
      add_setup(input.program, value, "parallelism", input.setup.parallelism);
      break;
    case Field::input_length:
    case Field::batch:
    case Field::expected_steps:
      break;
  }
}

}  // namespace

std::vector<std::string_view> known_keys() {
  std::vector<std::string_view> keys{"pad_to_multiple_of", "output_dir",  "out_dir",
                                     "checkpoint_dir",     "save_dir",    "resume_from_checkpoint",
                                     "logging_steps",      "log_interval"};
  for (const auto& spec : specs()) keys.insert(keys.end(), spec.keys.begin(), spec.keys.end());
  return keys;
}

std::optional<Evidence> first_value(const SettingTable& table, std::string_view key) {
  const Setting* setting = best_setting(table, key);
  if (!setting) return std::nullopt;
  return evidence_of(table, *setting);
}

std::vector<FieldValue> fill_fields(const PilotInput& input, const SettingTable& table) {
  std::vector<FieldValue> out;
  for (const auto& spec : specs()) {
    FieldValue value{spec.field, {}, std::string(spec.hint)};
    const bool setup_first = spec.field == Field::method || spec.field == Field::precision;
    if (setup_first) extras(input, table, value);
    for (std::string_view key : spec.keys) {
      const Setting* setting = best_setting(table, key);
      if (!setting) continue;
      add(value, evidence_of(table, *setting));
      if (const Setting* other = overridden_default(table, *setting)) {
        Evidence ev = evidence_of(table, *other);
        ev.name += other->source == Source::config_file ? " (another config)" : " (code default)";
        add(value, std::move(ev));
      }
    }
    if (!setup_first) extras(input, table, value);
    out.push_back(std::move(value));
  }
  return out;
}

}  // namespace tr2audit::pilot::detail
