// What an option's name says about itself, for program/options: a switch (`use_fp8`), a period (`eval_every`), an
// availability flag (`HAS_APEX`), a model-parallel degree or group, a device or expert count, a loss weight, a
// configuration object (`args.x`, `cfg.model.x`), the process a branch selects (`rank`), the attribute a parameter
// falls back to when left None (`default(x, self.x)`). Pure functions over text.
#include <algorithm>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {

bool names_model_input(std::string_view name) {
  const std::string lower = to_lower(name);
  return ends_with(lower, "model_name_or_path") || lower == "model_name" || lower == "model_path" ||
         lower == "base_model" || lower == "model_id" || lower == "pretrained_model";
}

bool is_literal(const facts::Argument& value) {
  using facts::LiteralKind;
  return value.kind == LiteralKind::null || value.kind == LiteralKind::boolean || value.kind == LiteralKind::integer ||
         value.kind == LiteralKind::floating || value.kind == LiteralKind::string;
}

// Names availability flags are given: HAS_APEX, _TRITON_AVAILABLE, APEX_OK, has_flash_attn.
bool named_like_flag(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  const bool availability = ends_with(l, "_available") || ends_with(l, "_installed") || ends_with(l, "_ok");
  const bool has = starts_with(l, "has_") || starts_with(l, "_has_");
  return (availability || has) && l.find("cuda") == std::string_view::npos && l.find("gpu") == std::string_view::npos;
}

// `utils.should_use_grouped_mm(x)` -> "should_use_grouped_mm".
std::string probe_name(std::string_view call_text) {
  const auto paren = call_text.find('(');
  return last_segment(call_text.substr(0, paren));
}

// `vis_period`, `eval_every`, `log_interval`, `sample_freq`: a period whose zero default turns a feature off
// (`if self.vis_period > 0:`). Counts such as `world_size > 1` are not options.
bool named_like_period(std::string_view name) {
  const std::string lower = to_lower(name);
  for (std::string_view word : {"period", "every", "interval", "freq"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

// `cp_size`, `tensor_parallel_size`, `ring_attn_size`, `pp_degree`: how many ranks a model-parallel scheme
// spans, an option that is off at its default of 1 (`if args.cp_size > 1:`). Not counts of the run
// (`world_size`, `num_gpus`) nor data parallelism, which every multi-rank run has.
bool named_like_parallel_degree(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  if (!ends_with(l, "_size") && !ends_with(l, "_degree")) return false;
  return parallel_scheme_word(l.substr(0, l.find('_')));
}

// `devices`, `num_gpus`, `n_devices`: how many accelerators a run uses, single-device at a default of 1
// (lit-llama's `DeepSpeedStrategy(...) if devices > 1 else "auto"`).
bool named_like_device_count(std::string_view name) {
  const std::string lower = to_lower(name);
  for (const std::string_view known :
       {"devices", "num_devices", "n_devices", "num_gpus", "n_gpus", "ngpus", "num_gpu", "n_gpu", "gpus"}) {
    if (lower == known) return true;
  }
  return false;
}

// `moe_num_experts`, `num_experts`, `n_routed_experts`: how many experts a mixture-of-experts layer has, off
// (a dense MLP) at its default of 1 (`if self.num_experts > 1:`).
bool named_like_expert_count(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  return ends_with(l, "_experts") &&
         (starts_with(l, "num_") || starts_with(l, "n_") || l.find("_num_") != std::string_view::npos ||
          l.find("_n_") != std::string_view::npos);
}

bool named_like_loss_weight(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  return starts_with(l, "alpha_") || starts_with(l, "lambda_") || ends_with(l, "_weight") || ends_with(l, "_coef") ||
         ends_with(l, "_coeff");
}

// `latent_drop_prob`, `layer_dropout`, `drop_path_rate`, `mask_prob`: a probability that switches a stochastic path
// on above 0 (`if self.training and latent_drop_prob > 0. and random() < latent_drop_prob:`).
bool named_like_probability(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  return ends_with(l, "_prob") || ends_with(l, "_probability") || ends_with(l, "dropout") ||
         ends_with(l, "drop_rate") || ends_with(l, "drop_path") || ends_with(l, "drop_path_rate");
}

// `ring_attn_group`, `sp_group`, `context_parallel_group`: the process group of a model-parallel scheme,
// None unless the scheme is on.
bool parallel_group(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  return ends_with(l, "_group") && parallel_scheme_word(l.substr(0, l.find('_')));
}

bool parallel_scheme_word(std::string_view first) {
  for (std::string_view scheme : {"cp", "tp", "pp", "sp", "ep", "etp", "context", "tensor", "pipeline", "sequence",
                                  "expert", "ring", "ulysses"}) {
    if (first == scheme) return true;
  }
  return false;
}

// `use_fp8`, `enable_x`, `with_lora`, `do_eval`, `x_enabled`: a name that reads as an on/off option.
// A private attribute reads the same: `self._enable_fp8_training`.
bool named_like_switch(std::string_view name) {
  const std::string lower = to_lower(name);
  std::string_view l = lower;
  while (!l.empty() && l.front() == '_') l.remove_prefix(1);
  return starts_with(l, "use_") || starts_with(l, "enable_") || starts_with(l, "with_") || starts_with(l, "do_") ||
         starts_with(l, "apply_") || ends_with(l, "_enabled");
}

// `config.x`, `cfg.model.x`, `args.x`, `self.hparams.x`: the receiver is a configuration object.
bool config_receiver(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  if (dot == std::string_view::npos) return false;
  const std::string receiver = to_lower(dotted.substr(0, dot));
  for (std::string_view word : {"config", "cfg", "args", "opt", "hparams", "conf", "flags", "params", "settings"}) {
    if (receiver.find(word) != std::string::npos) return true;
  }
  return false;
}

bool option_receiver(std::string_view dotted) {
  if (!starts_with(dotted, "self.")) return config_receiver(dotted);
  dotted.remove_prefix(5);
  const auto dot = dotted.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string held = to_lower(dotted.substr(0, dot));
  for (std::string_view word : {"args", "config", "cfg", "conf", "hparams", "opt", "opts", "flags", "settings"}) {
    if (held == word) return true;
  }
  return ends_with(held, "_args") || ends_with(held, "_config") || ends_with(held, "_cfg");
}

bool names_process_rank(std::string_view name) {
  const std::string lower = to_lower(name);
  return lower == "rank" || ends_with(lower, "_rank") || lower == "process_index" || lower == "local_process_index" ||
         lower == "is_main_process" || lower == "is_local_main_process";
}

// What `name` falls back to when the caller leaves it None: `default(name, other)` (a helper of that name),
// `name if name is not None else other`, `other if name is None else name`.
std::optional<std::string> fallback_of(std::string_view value, std::string_view name) {
  const std::string n(name);
  if (value.starts_with("default(" + n + ",") && value.ends_with(")"))
    return std::string(trim(value.substr(9 + n.size(), value.size() - 10 - n.size())));
  const std::string then_form = n + " if " + n + " is not None else ";
  if (value.starts_with(then_form)) return std::string(trim(value.substr(then_form.size())));
  const auto is_none = value.find(" if " + n + " is None else " + n);
  if (is_none != std::string_view::npos && is_none + 18 + 2 * n.size() == value.size())
    return std::string(trim(value.substr(0, is_none)));
  return std::nullopt;
}

}  // namespace tr2audit::program::option_values
