// rules/match_detail (private): the per-fact tests behind rules::match: a rule's subject
// conditions against one fact, and where/unless predicates against a fact's context.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/rule.hpp"

namespace tr2audit::rules::detail {

/// Where a keyword's value is a name, the default it holds (program::Program::default_of at the call).
struct ValueDefaults {
  std::function<std::optional<facts::Argument>(std::string_view name)> lookup;
  /// What a local name holds (program::Program::local_value_of at the call): `any_argument` conditions
  /// match a literal the call receives through a local (`init_process_group(backend=backend)`).
  std::function<std::optional<facts::Argument>(std::string_view name)> local;
  /// The values a name's type allows (program::Program::choices_of): an option none of whose values
  /// matches can never turn the rule on, so it is not reported as opt-in.
  std::function<std::optional<std::vector<std::string>>(std::string_view name)> choices;
  /// Set when a keyword condition held only for another value of an option: the option's name, so the
  /// finding is reported as opt-in (low, "runs only when X is set").
  std::string opt_in;
  /// The first keyword argument a `keyword` condition matched: the finding points at it (`fp16=True`
  /// inside a long TrainingArguments(...) call), not at the call's first line.
  Span keyword_at{};
  /// Guards of a matched value that holds only on one side of a CUDA check (`"nccl" if has_gpu else
  /// "gloo"`): the finding is guarded like code under `if has_gpu:`.
  std::uint16_t guards = 0;
};

/// `GradScaler(enabled=(args.dtype == "float16"))` with `--dtype` defaulting to "bfloat16": the option test
/// that switches the call's object off by default, or "" (rules/match_switches).
std::string switched_off(const program::Program& program, program::FileId file, const facts::CallFact& call);
/// `import bitsandbytes` whose only uses in `file` are its metadata (`bitsandbytes.__version__`)
/// (rules/match_switches).
bool metadata_only(const facts::FileFacts& file, const facts::ImportFact& import);
/// The call sits in the arguments of a print or logging call (`print("gpus:", torch.cuda.device_count())`,
/// `logger.info(f"{torch.cuda.device_count()} devices")`): its value only goes into a message.
bool in_message_call(const facts::FileFacts& file, const facts::CallFact& call);
/// The call's value (or an attribute of it) is bound to a local that the function only compares or decodes for
/// a message: `untruncated_ids = tokenizer(prompt, padding="longest").input_ids`, then `torch.equal(ids,
/// untruncated_ids)` and `tokenizer.batch_decode(untruncated_ids[:, n:])` (diffusers' truncation warning): it is
/// compared (`torch.equal`) and otherwise only decoded, measured or logged.
bool result_checked_only(const facts::FileFacts& file, const facts::CallFact& call);
/// `from bitsandbytes.optim.optimizer import Optimizer2State` used in the file only as the base of repo
/// classes (`class AdamW8bit(Optimizer2State):`): those classes (ClassInfo indices), else none.
std::vector<std::int32_t> base_class_only(const facts::FileFacts& file, const facts::ImportFact& import);

/// A call of an object a library class built in this file (`self.inner_attn(qkv)` after `self.inner_attn =
/// FlashAttention(...)` in the class; `loss_fn(x, y)` after `loss_fn = CrossEntropyLoss()` in the function),
/// the name bound to nothing else (rules/instance_calls).
struct InstanceCall {
  std::uint32_t call = 0;       ///< CallFact index of the instance's call
  std::uint32_t construct = 0;  ///< CallFact index of the library constructor
};
std::vector<InstanceCall> instance_calls(const facts::FileFacts& file, const program::Program& program);

/// A rule that calls its subject GPU-only: category cuda-extension/cuda-library at medium or above.
bool is_gpu_only_rule(const Rule& rule, TargetProfile profile);

/// True when a call or method fact satisfies the rule's conditions; `value` gets the value of the
/// first keyword/positional condition's argument (for the {value} placeholder). With `defaults`, a
/// keyword whose value is a name (`drop_last=self.drop_last`) is judged by that name's default; a
/// name whose default does not match but that the user can set holds as opt-in.
bool call_conditions_hold(const Conditions& c, const facts::CallFact& call, std::string& value,
                          ValueDefaults* defaults = nullptr);
/// Decorators take keyword conditions only.
bool decorator_conditions_hold(const Conditions& c, const facts::DecoratorFact& decorator, std::string& value);
/// `importer_module` is the importing file's dotted module ("examples.train", "pkg.models.llama").
bool import_conditions_hold(const Conditions& c, const facts::ImportFact& import, facts::ImportOrigin origin,
                            std::string_view importer_module);
/// `guards` gets the guards of a conditional value that matches on its first side only.
bool assign_conditions_hold(const Conditions& c, const facts::AssignFact& assign, std::uint16_t* guards = nullptr);
bool dependency_conditions_hold(const Conditions& c, const facts::DependencyFact& dependency);
bool device_conditions_hold(const Conditions& c, const facts::DeviceLiteralFact& device);

/// True when the rule's `where` predicates all hold and none of its `unless` predicates does.
bool context_allows(const Rule& rule, const program::FileView& file, const facts::Context& ctx, std::uint32_t line = 0);

}  // namespace tr2audit::rules::detail
