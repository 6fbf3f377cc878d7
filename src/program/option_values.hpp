// Option names and values (program/option_values.cpp), shared by program/options.
#pragma once

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::program::option_values {

/// A module constant of a file, by name (program/options).
struct ConstantKey {
  std::uint32_t file = 0;
  std::string name;
  bool operator==(const ConstantKey&) const = default;
};
struct ConstantKeyHash {
  std::size_t operator()(const ConstantKey& k) const { return std::hash<std::string>{}(k.name) * 31 + k.file; }
};
/// How often the module assigns a constant, and its last value.
struct ModuleConstant {
  std::uint32_t assignments = 0;
  const facts::Argument* value = nullptr;
};

/// The few values made by program/options (an argparse flag's implied default, an environment switch),
/// kept as long as the guards that point at them.
class ValueStore {
 public:
  const facts::Argument& keep(facts::Argument value) { return m_made.emplace_back(std::move(value)); }

 private:
  std::deque<facts::Argument> m_made;
};

std::string last_segment(std::string_view dotted);
/// "config.model.x" -> "model.x".
std::string last_two(std::string_view dotted);
bool is_falsy(const facts::Argument& value);
/// An integer or decimal literal's value ("0", "0.0", "1e-3").
std::optional<double> number_of(std::string_view text);
std::optional<long long> integer_of(std::string_view text);
/// A None, bool, int, float or string literal.
bool is_literal(const facts::Argument& value);
/// True when a branch on `term` is not taken with `value` as the tested name's value.
bool leaves_off(const facts::Argument& value, const facts::ConditionTerm& term);
/// HAS_APEX, _TRITON_AVAILABLE, APEX_OK, has_flash_attn.
bool named_like_flag(std::string_view name);
/// `utils.should_use_grouped_mm(x)` -> "should_use_grouped_mm".
std::string probe_name(std::string_view call_text);
/// vis_period, eval_every, log_interval, sample_freq.
bool named_like_period(std::string_view name);
/// `moe_num_experts`, `num_experts`: a mixture-of-experts layer's expert count, off at 1.
bool named_like_expert_count(std::string_view name);
/// `alpha_mse`, `lambda_kl`, `aux_loss_weight`, `entropy_coef`: the weight of a loss term, off at 0.
bool named_like_loss_weight(std::string_view name);
/// What `name` falls back to when the caller leaves it None: `default(name, other)` (a helper of that name),
/// `name if name is not None else other`, `other if name is None else name`; nullopt for any other value.
std::optional<std::string> fallback_of(std::string_view value, std::string_view name);
/// `latent_drop_prob`, `layer_dropout`, `drop_path_rate`: a probability that turns a stochastic path on above 0.
bool named_like_probability(std::string_view name);
/// `self.rope_fusion` when the class binds it only as `self.rope_fusion = neox_args.rope_fusion`, or as
/// `self.num_experts = neox_args.moe_num_experts if ... else 1` with a last arm that leaves `term` off: that read.
std::optional<std::string> attribute_copy_of_read(const facts::FileFacts& file, std::int32_t function,
                                                  const facts::ConditionTerm& term);
/// cp_size, tensor_parallel_size, ring_attn_size: a model-parallel degree (off at 1).
bool named_like_parallel_degree(std::string_view name);
/// devices, num_gpus, n_devices: how many accelerators a run uses (single-device at a default of 1).
bool named_like_device_count(std::string_view name);
/// ring_attn_group, sp_group: a model-parallel scheme's process group (None while the scheme is off).
bool parallel_group(std::string_view name);
/// cp, tp, ring, ulysses, sequence, ...: the first word of a model-parallel option's name.
bool parallel_scheme_word(std::string_view first);
/// use_fp8, enable_x, with_lora, do_eval, x_enabled (and their private forms).
bool named_like_switch(std::string_view name);
/// `model_name_or_path`, `base_model`, `model_path`, `pretrained_model_name_or_path`: the model a run loads,
/// which every real run gives (no switch, whatever its flag's default).
bool names_model_input(std::string_view name);
/// config.x, cfg.model.x, args.x, self.hparams.x.
bool config_receiver(std::string_view dotted);
/// config_receiver, and through `self` only a config object the instance holds (`self.args.x`,
/// `self.model_config.x`), not instance state (`self.optimizer.x`, `self.kv_cache`).
bool option_receiver(std::string_view dotted);
/// `if quantize is not None:` on a parameter of `function` (or an enclosing one) typed as a choice
/// (`Literal[...]`) or a flag (`bool`): a scalar option, not an optional input.
bool scalar_option_param(const facts::FileFacts& file, std::int32_t function, const std::string& name);
/// A method that completes a config object: a dataclass's `__post_init__`, or one a pydantic validator
/// decorator marks.
bool fills_config(const facts::FileFacts& file, std::int32_t function);
/// `RingAttnFunc.VARLEN if packing else RingAttnFunc.BATCH`: a value picked among constants wherever it runs.
bool constant_choice(const facts::Argument& value);
/// `"1" if pgm.cp_world_size > 1 else "0"`: a value that differs from its else-arm only with a model-parallel
/// degree above 1.
bool on_with_parallel_degree(const facts::Argument& value);
/// How a finding names the option a term tests: `not x`, `x > 0`, `x is not None`, `x == "v"`.
std::string describe_term(const facts::ConditionTerm& term);
/// How many terms of `branch` before `term` test the same name (`x.get("a", 5) != 5 or not x.get("b",
/// True)`: the second term reads the second `x.get` call of the condition).
std::size_t same_name_ordinal(const facts::BranchInfo& branch, const facts::ConditionTerm& term);
/// `cfg.get("use_ema", False)` -> ("use_ema", False).
std::optional<std::pair<std::string, facts::Argument>> get_with_default(std::string_view text);
/// "--train.use-fp8" -> "use_fp8".
std::string option_name_of(const std::string& flag);
/// A literal as written in source or a config file; `quoted_only` accepts quoted strings only.
std::optional<facts::Argument> literal_of(std::string_view text, bool quoted_only = false);
/// os.getenv, os.environ.get.
bool reads_environment(std::string_view callee);
/// `os.getenv("K", "FALSE") == "TRUE"` -> the value with K unset (a boolean), else nothing.
std::optional<facts::Argument> environment_switch(std::string_view text);
/// `os.getenv("K", "FALSE") == "TRUE"` -> "K".
std::string environment_key(std::string_view text);
/// `args.my_testing` / `str(args.ctx_len)` set into an environment variable: the option copied, else "".
std::string bridged_option(std::string_view text);
/// A local of `function` bound to an environment read before `branch` (`_dump = os.environ.get("LOGIT_DUMP")`
/// before `if _dump is not None:`), or bound once to a comparison of one (`fold = os.environ.get("PTS_FOLD",
/// "0") == "1"` before `if fold:`): nothing when there is none or it is also bound otherwise; else the
/// switch (the variable's, "LOGIT_DUMP is not None", or the comparison as read) when its unset value leaves
/// the branch off and the repo never sets the variable (`set_by_repo`), or an empty answer.
std::optional<std::optional<std::string>> environment_local(const facts::FileFacts& file, std::int32_t function,
                                                            const facts::BranchInfo& branch,
                                                            const facts::ConditionTerm& term,
                                                            const std::unordered_set<std::string>& set_by_repo);
/// The dotted read (`self.cfg.activation_offloading`) a bare local of `function` copies, when it is no
/// parameter, the function binds it once and binds no call result to it, and the binding is the statement
/// right before the if (the facts keep no plain local bound to a computed value, so a rebinding between
/// the two could not be seen); else nothing.
std::optional<std::string> local_copy_of_read(const facts::FileFacts& file, std::int32_t function,
                                              const facts::BranchInfo& branch, const facts::ConditionTerm& term);
/// The one binding of `self.<attribute>` (`attribute` written with `self.`) that class `klass` of `file` makes: in
/// `__init__`, under no branch. Null when the class binds it elsewhere too, or there or conditionally
/// (`self.use_xformers = xformers_att_config is not None`, `self.max_length = max_length`).
const facts::AssignFact* sole_init_binding(const facts::FileFacts& file, std::int32_t klass,
                                           std::string_view attribute);
/// `neox_args.attention_config` of `neox_args.attention_config[layer_number]`: the dotted read an element read
/// indexes (by a name or an expression, not a quoted key); else nothing.
std::optional<std::string> element_read_base(std::string_view text);
/// `if self.use_flash_attention:` where the class binds that attribute once, to `self.attention_type == "flash"`
/// (or `!=`, `in (...)`, `not in (...)` of literals): the comparison, as a term on its left side (negated for
/// `not self.use_flash_attention`); else nothing.
std::optional<facts::ConditionTerm> attribute_comparison(const facts::FileFacts& file, std::int32_t function,
                                                         const facts::ConditionTerm& term);
/// The one assign the facts hold of `name` in `function`, or nothing (none, or more than one).
/// `if repetition_penalty != 1.0:` on a parameter that defaults to the number it is compared with: the branch runs only
/// when a caller changes the parameter, an option like a switch (program/option_values).
bool neutral_default(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term);
const facts::AssignFact* sole_binding(const facts::FileFacts& file, std::int32_t function, std::string_view name);
/// `rank`, `local_rank`, `global_rank`, `process_index`, `is_main_process`: which process of a run this is.
bool names_process_rank(std::string_view name);
/// `_C.MODEL.ROI_HEADS.NAME`: every key after the root is upper case (a yacs config node's keys).
bool yacs_key(std::string_view dotted);
/// The dotted read (`cfg.MODEL.ROI_BOX_HEAD.POOLER_TYPE`) a bare local of `function` holds at `before` (a byte
/// offset): no parameter, bound once in the function, before that offset, to a plain dotted name, and never to
/// a call's result; else nothing. (A rebinding to some other computed value is not in the facts: callers
/// use this only where the read is the option's plain hand-over, `pooler_type = cfg...; Pooler(pooler_type=...)`.)
std::optional<std::string> sole_dotted_read(const facts::FileFacts& file, std::int32_t function, std::string_view name,
                                            std::uint32_t before);
/// The class whose method (or a function nested in one) `function` is; -1 when none.
std::int32_t enclosing_class(const facts::FileFacts& file, std::int32_t function);
/// How a class's methods bind a switch attribute (`self.use_apex`): HF Trainer's mixed-precision setup binds
/// `self.use_apex = False` unconditionally and `self.use_apex = True` only inside branches.
struct SwitchBindings {
  bool initialised_off = false;  ///< an unconditional `= False`, or one on the else side of a test that turns it on
  std::vector<const facts::AssignFact*> turned_on;  ///< the `= True` bindings, each inside a branch
  /// A setter method's binding from its parameter (`def set_use_memory_efficient_attention(self, xformers, mem_eff):
  /// self.use_xformers = xformers`): the switch is on where a call of the setter passes it on.
  struct Setter {
    const facts::FunctionInfo* method = nullptr;
    std::string_view parameter;  ///< "xformers"
    std::size_t position = 0;    ///< among the positional parameters after `self`
  };
  std::vector<Setter> setters;
};
/// `def set_x(self, x): self.use_x = x`: the parameter `self.<attribute>` is bound from in `function`, a method other
/// than `__init__` (whose bindings are constructor switches), with its position after `self`; nothing otherwise.
std::optional<SwitchBindings::Setter> setter_binding(const facts::FileFacts& file, const facts::AssignFact& assign);
/// A call of a setter, with the value it passes for the setter's parameter (null: the parameter's default).
struct SetterCall {
  std::uint32_t file = 0;
  const facts::CallFact* call = nullptr;
  const facts::Argument* value = nullptr;
};
/// The calls of the repo's setter methods (setter_binding), by method name, indexed once per scan
/// (program/setter_calls).
class SetterCalls {
 public:
  /// `main_block_self_test`: per file, its `__main__` block is a self-test no run executes
  /// (Impl::main_block_self_test).
  SetterCalls(const std::vector<facts::FileFacts>& files, const std::vector<char>& main_block_self_test);
  /// The calls a run can make of a setter of this name (a test's, a self-test `__main__` block's and a same-named
  /// setter's that forwards its own parameter, `self.attn1.set_x(x)`, are left out: the forwarding setter's own
  /// calls are among them), each with the value it passes for the parameter; nothing when one passes it through
  /// `*args`/`**kwargs` or the method's name is too common to tell one class's setter from another's.
  std::optional<std::vector<SetterCall>> calls(const SwitchBindings::Setter& setter) const;

 private:
  const std::vector<facts::FileFacts>& m_files;
  std::unordered_map<std::string_view, std::vector<std::pair<std::uint32_t, const facts::CallFact*>>> m_calls;
};
/// The bindings of `name` in the methods of class `klass`; nothing when it is no such switch there (bound
/// from a value, turned on unconditionally, or turned off only on one side of a test).
std::optional<SwitchBindings> switch_bindings(const facts::FileFacts& file, std::int32_t klass, std::string_view name);
/// `if pretrained_dtype == torch.uint8:` after `pretrained_dtype = self.linear.weight.data.dtype` (or `if
/// weight.dtype == torch.int8:`): a weight stored as integers, which only a quantization library (bitsandbytes'
/// Params4bit/Int8Params) makes; the branch runs only for a model the caller loaded quantized.
bool quantized_storage_test(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term);
/// `if cls_name in ("Params4bit", "Int8Params"):` after `cls_name = weight.__class__.__name__` (or
/// `type(layer).__name__ == "Linear4bit"`): a weight or layer only a quantization library builds, so the
/// branch runs only for a model the caller loaded quantized. The test as shown (the class-name read, not
/// the local), or nothing.
std::optional<std::string> quantized_class_test(const facts::FileFacts& file, std::int32_t function,
                                                const facts::ConditionTerm& term);
/// `inference_params is None`: decoding state a training run does not have.
bool absent_in_training(const facts::ConditionTerm& term);

/// Defaults of options seen anywhere in the repo, by option name: the facts' own values (or a ValueStore's).
class OptionDefaults {
 public:
  void add(const std::string& name, const facts::Argument& value) {
    if (name.empty()) return;
    auto& slot = m_defaults[name];
    if (!is_literal(value)) {
      slot.unknown = true;
      return;
    }
    slot.values.push_back(&value);
  }
  void add_computed(const std::string& name) {
    const auto it = m_defaults.find(name);
    if (it != m_defaults.end())
      it->second.unknown = true;
    else
      m_computed.insert(name);
  }
  /// The repo computes the option's value somewhere (`args.critic.model_name_or_path = args.actor.model_name_or_path`).
  bool computed(const std::string& name) const {
    const auto it = m_defaults.find(name);
    return (it != m_defaults.end() && it->second.unknown) || m_computed.count(name);
  }
  /// The repo gives the option a default or computes it somewhere.
  bool known(const std::string& name) const { return m_defaults.count(name) || m_computed.count(name); }
  /// True when every known default takes a branch on `term` (`deepspeed: bool = True`).
  bool on_by_default(const std::string& name, const facts::ConditionTerm& term) const {
    const auto it = m_defaults.find(name);
    return it != m_defaults.end() && !it->second.unknown && !it->second.values.empty() &&
           std::none_of(it->second.values.begin(), it->second.values.end(),
                        [&](const facts::Argument* v) { return leaves_off(*v, term); });
  }
  /// True when every known default leaves a branch on `term` off (and at least one is known).
  bool off_by_default(const std::string& name, const facts::ConditionTerm& term) const {
    const auto it = m_defaults.find(name);
    if (it == m_defaults.end() || it->second.unknown || it->second.values.empty() || m_computed.count(name))
      return false;
    for (const facts::Argument* value : it->second.values) {
      if (!leaves_off(*value, term)) return false;
    }
    return true;
  }

 private:
  struct Slot {
    std::vector<const facts::Argument*> values;
    bool unknown = false;
  };
  std::unordered_map<std::string, Slot> m_defaults;
  std::unordered_set<std::string> m_computed;  ///< names of methods and properties
};

/// `name` is one of the function's parameters (before any `*args`).
bool is_parameter(const facts::FunctionInfo& info, std::string_view name);
/// The parameter's position among those a call passes positionally (after `self`/`cls` for a method), if it
/// comes before any `*args`.
std::optional<std::size_t> positional_index(const facts::FunctionInfo& info, std::string_view name);

// program/config_defaults.cpp
/// The settings (full key, literal value) of the config files `@hydra.main(config_name=...)` names.
using HydraDefaults = std::vector<std::pair<std::string, facts::Argument>>;
HydraDefaults hydra_defaults(const std::vector<facts::FileFacts>& files);
/// A Hydra config read's default (`config.actor_rollout_ref.actor.strategy`), when the default configs agree.
std::optional<facts::Argument> hydra_default(const HydraDefaults& defaults, std::string_view read);
/// The parameter is annotated (`args: TrainConfig`).
bool typed_param(const facts::FunctionInfo& method, std::string_view param);
/// The `self.x = x` bindings of the repo's non-test methods, indexed by attribute once per scan, to answer: the
/// default every repo class gives a boolean constructor switch of that name, if they agree and no construction in
/// `switched_on` (constructor_arguments) passes the other value.
class ConstructorSwitches {
 public:
  explicit ConstructorSwitches(const std::vector<facts::FileFacts>& files);
  std::optional<facts::Argument> find(const std::unordered_set<std::string>& switched_on,
                                      const std::string& attribute) const;

 private:
  struct Bind {
    std::uint32_t file;
    std::uint32_t assign;
  };
  const std::vector<facts::FileFacts>& m_files;
  std::unordered_map<std::string, std::vector<Bind>> m_binds;
};
/// The file binds `name` as an `and` with an availability flag (`config.use_flash_attn and has_flash_attn`).
bool bound_with_flag(const facts::FileFacts& file, const FactString& name,
                     const std::unordered_set<std::string>& flags);

/// Fields a config's validators or `__post_init__` fill (program/option_values).
void add_filled_fields(const facts::FileFacts& file, OptionDefaults& options);

/// The names the repo's non-test code registers into each registry, by the registry's resolved dotted name
/// (`llmfoundry.layers_registry.ffns_with_megablocks` → "mb_moe", "mb_dmoe", joined by k_member_separator):
/// `ffns_with_megablocks.register("mb_moe", func=...)`, `@norms.register("rms")`, the first string or `name=`
/// (program/option_tables).
std::unordered_map<std::string, std::string> registered_names(const std::vector<facts::FileFacts>& files);
/// What the repo's non-test code passes when it builds one of its own classes (program/option_tables): the boolean
/// literals, as "Collator.pad_to_longest=True" (by keyword) or "Collator.#2=False" (by position); any value but
/// None, as "Collator.pad_to_longest=?" or "Collator.#2=?"; "Collator.**" for a construction that splats (which
/// may pass anything); and "Collator.()" for each class the code builds at all.
std::unordered_set<std::string> constructor_arguments(const std::vector<facts::FileFacts>& files);

/// What the repo's shell scripts (and notebooks' shell escapes) pass to the scripts they launch
/// (program/launched_options): each launched program that is a repo file with an argument parser, once per
/// script, with how many of the script's launch lines run it.
class LaunchedOptions {
 public:
  /// `cli`: per file, the command-line options its own parser declares.
  LaunchedOptions(const std::vector<facts::FileFacts>& files,
                  const std::unordered_map<std::uint32_t, OptionDefaults>& cli);
  /// True when the scripts launch a file whose parser declares `--<name>`, and every launch line of it passes that
  /// flag with a value that takes a branch on `term` (a launch without the flag runs the default).
  bool on(std::string_view name, const facts::ConditionTerm& term) const;

 private:
  struct Launch {
    std::uint32_t script;
    std::uint32_t target;
    std::string_view program;  ///< as the script writes it (facts::FileFacts::launched_programs)
    std::ptrdiff_t lines;      ///< the script's launch lines that run it
  };
  const std::vector<facts::FileFacts>& m_files;
  const std::unordered_map<std::uint32_t, OptionDefaults>& m_cli;
  std::vector<Launch> m_launches;
};

}  // namespace tr2audit::program::option_values
