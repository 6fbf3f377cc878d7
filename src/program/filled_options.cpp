// Option values a config or launcher fills at run time, shared by program/options: fields a pydantic
// validator or a dataclass's `__post_init__` sets after their declared default, and environment switches a
// repo turns on only with a model-parallel degree above 1.
#include <algorithm>
#include <cctype>
#include <string>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {

/// A method that completes a config object: a dataclass's `__post_init__`, or one a pydantic
/// validator decorator marks (`@model_validator(mode="after")`, `@root_validator`, `@field_validator`).
bool fills_config(const facts::FileFacts& file, std::int32_t function) {
  const auto& fn = file.functions[static_cast<std::size_t>(function)];
  if (fn.klass < 0) return false;
  if (fn.name == "__post_init__") return true;
  return std::any_of(fn.decorators.begin(), fn.decorators.end(),
                     [](const QualifiedName& d) { return ends_with(d.dotted(), "validator"); });
}

/// `RingAttnFunc.VARLEN if packing else RingAttnFunc.BATCH_RING`: a value a validator picks among
/// constants (enum members or literals) wherever it runs. A constant set under a condition (`if
/// self.gradient_checkpointing == "offload": self.activation_offloading = True`, a deprecated alias) or a
/// value read from another field (a renamed option) says nothing about the default.
bool constant_choice(const facts::Argument& value) {
  const auto constant = [](std::string_view arm) {
    arm = trim(arm);
    while (arm.size() >= 2 && arm.front() == '(' && arm.back() == ')') arm = trim(arm.substr(1, arm.size() - 2));
    if (arm.empty()) return false;
    if (arm == "True" || arm == "False" || arm == "None" || arm.front() == '"' || arm.front() == '\'' ||
        std::isdigit(static_cast<unsigned char>(arm.front())))
      return true;
    const auto dot = arm.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return false;
    const auto before = arm.rfind('.', dot - 1);
    const std::string_view klass = arm.substr(before == std::string_view::npos ? 0 : before + 1);
    return std::isupper(static_cast<unsigned char>(klass.front())) != 0 &&
           std::all_of(arm.begin(), arm.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
  };
  std::string flat;  // the expression on one line, whitespace runs as one space
  for (const char c : std::string_view(value.value)) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space)
      flat += c;
    else if (!flat.empty() && flat.back() != ' ')
      flat += ' ';
  }
  std::string_view text = trim(std::string_view(flat));
  while (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = trim(text.substr(1, text.size() - 2));
  const auto cond = text.find(" if ");
  const auto other = text.rfind(" else ");
  if (cond == std::string_view::npos || !constant(text.substr(0, cond))) return false;
  if (ends_with(text, "\u2026")) return true;  // (the facts cap a long expression's text: its first arm stays)
  return other != std::string_view::npos && other > cond && constant(text.substr(other + 6));
}

/// `"1" if pgm.cp_world_size > 1 else "0"`: a value that differs from its else-arm only when a model-parallel
/// degree (`cp_world_size`, `tp_size`) is above 1.
bool on_with_parallel_degree(const facts::Argument& value) {
  const std::string_view text = value.value;
  const auto cond = text.find(" if ");
  const auto other = text.rfind(" else ");
  if (value.kind != facts::LiteralKind::other || cond == std::string_view::npos || other == std::string_view::npos ||
      other < cond)
    return false;
  const std::string_view test = trim(text.substr(cond + 4, other - cond - 4));
  const auto gt = test.find(" > ");
  if (gt == std::string_view::npos || trim(test.substr(gt + 3)) != "1") return false;
  return named_like_parallel_degree(last_segment(trim(test.substr(0, gt))));
}

// `self.ring_attn_func = RingAttnFunc.VARLEN if ... else RingAttnFunc.BATCH_RING` in a pydantic validator or a
// dataclass's `__post_init__`: the config fills the field after its declared default, so that default is not
// what a run gets. `self.peft_type = PeftType.CPT` in a config subclass's `__post_init__` is one more value,
// which the option's tests compare with; one set under a condition (a deprecated alias's) says nothing.
void add_filled_fields(const facts::FileFacts& file, OptionDefaults& options) {
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function < 0 || !starts_with(assign.target_text, "self.")) continue;
    const std::string_view field = std::string_view(assign.target_text).substr(5);
    if (field.find('.') != std::string_view::npos || !fills_config(file, assign.ctx.function)) continue;
    if (constant_choice(assign.value))
      options.add_computed(std::string(field));
    else if (assign.ctx.branch < 0 && assign.value.kind == facts::LiteralKind::name)
      options.add(std::string(field), assign.value);
  }
}

}  // namespace tr2audit::program::option_values
