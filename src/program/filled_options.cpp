// Option values a config or launcher fills at run time, shared by program/options: fields a pydantic
// validator or a dataclass's `__post_init__` sets after their declared default, and environment switches a
// repo turns on only with a model-parallel degree above 1.
#include <algorithm>
#include <cctype>
#include <optional>
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

namespace {

/// `A if cond else B` as written (on one line, outer parentheses off): its three parts; `cut` when the
/// facts capped the text (`A if cond els…`), which keeps the first arm and the condition's start.
struct Conditional {
  std::string_view then_arm, condition, else_arm;
  bool cut = false;
};

std::optional<Conditional> split_conditional(std::string_view written, std::string& flat) {
  flat.clear();  // whitespace runs (a parenthesised expression over lines) as one space
  for (const char c : written) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0)
      flat += c;
    else if (!flat.empty() && flat.back() != ' ')
      flat += ' ';
  }
  const std::string_view text = unwrap_parens(flat);
  const auto cond = text.find(" if ");
  if (cond == std::string_view::npos) return std::nullopt;
  Conditional out;
  out.then_arm = unwrap_parens(text.substr(0, cond));
  out.cut = ends_with(text, "\u2026");
  const auto other = text.rfind(" else ");
  if (other == std::string_view::npos || other < cond) {
    if (!out.cut) return std::nullopt;
    out.condition = trim(text.substr(cond + 4));
    return out;
  }
  out.condition = trim(text.substr(cond + 4, other - cond - 4));
  out.else_arm = unwrap_parens(text.substr(other + 6));
  return out;
}

/// A literal or an enum member.
bool constant(std::string_view arm) {
  if (arm.empty()) return false;
  return arm == "True" || arm == "False" || arm == "None" || arm.front() == '"' || arm.front() == '\'' ||
         std::isdigit(static_cast<unsigned char>(arm.front())) != 0 || names_enum_member(arm);
}

}  // namespace

/// `RingAttnFunc.VARLEN if packing else RingAttnFunc.BATCH_RING`: a value a validator picks among
/// constants (enum members or literals) wherever it runs. A constant set under a condition (`if
/// self.gradient_checkpointing == "offload": self.activation_offloading = True`, a deprecated alias) or a
/// value read from another field (a renamed option) says nothing about the default.
bool constant_choice(const facts::Argument& value) {
  std::string flat;
  const auto parts = split_conditional(value.value.view(), flat);
  // (The facts cap a long expression's text: a cut one keeps its first arm.)
  return parts && constant(parts->then_arm) && (parts->cut || constant(parts->else_arm));
}

/// `"1" if pgm.cp_world_size > 1 else "0"`: a value that differs from its else-arm only when a model-parallel
/// degree (`cp_world_size`, `tp_size`) is above 1.
bool on_with_parallel_degree(const facts::Argument& value) {
  if (value.kind != facts::LiteralKind::other) return false;
  std::string flat;
  const auto parts = split_conditional(value.value.view(), flat);
  if (!parts || parts->cut) return false;
  const auto gt = parts->condition.find(" > ");
  if (gt == std::string_view::npos || trim(parts->condition.substr(gt + 3)) != "1") return false;
  return named_like_parallel_degree(last_segment(trim(parts->condition.substr(0, gt))));
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
