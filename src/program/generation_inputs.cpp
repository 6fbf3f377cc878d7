// Statements that build a generation demo's input (program/model.hpp, Impl::generation_inputs): a name bound at
// a script's or notebook's top level to a call (`model_input = tokenizer(prompt, return_tensors="pt").to("cuda")`)
// that the top level hands only to `.generate(...)` calls. A fine-tuning notebook prompts the model before and
// after training this way; the statement is inference, whatever the cells around it train. (Inside a function,
// the roles of the function that generates already say where it runs: an evaluation loop keeps its place.)
#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

enum class Use { none, generation, preparation, neutral, other };

bool names_part(std::string_view text, std::string_view name) {
  if (!starts_with(text, name)) return false;
  const std::string_view rest = text.substr(name.size());
  return rest.empty() || rest.front() == '[' || rest.front() == '.';
}

/// How `call` uses `name`: as (part of) an argument of a `.generate(...)` call; as the receiver of a move
/// or cast (`tokenized["pixel_values"].to(dtype=torch.bfloat16, device="cuda")`, preparing the input); in
/// `len(...)`; in any other call; or not at all.
Use use_in(const facts::CallFact& call, std::string_view name) {
  bool argument = false;
  for (const auto& arg : call.args) {
    std::string_view value = arg.value.view();
    while (!value.empty() && value.front() == '*') value.remove_prefix(1);
    argument |= names_part(value, name);
  }
  const bool receiver = names_part(call.receiver_text.view(), name);
  if (!argument && !receiver) return Use::none;
  const std::string_view method = call.method.view();
  if (argument && !receiver && method == "generate") return Use::generation;
  if (argument && !receiver && call.callee_text == "len") return Use::neutral;
  if (receiver && !argument &&
      (method == "to" || method == "cuda" || method == "half" || method == "bfloat16" || method == "float"))
    return Use::preparation;
  return Use::other;
}

}  // namespace

void find_generation_inputs(Program::Impl& impl) {
  impl.generation_inputs.assign(impl.files.size(), {});
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const facts::FileFacts& file = impl.files[f];
    if (file.is_test || file.bound_calls.empty()) continue;
    auto& lines = impl.generation_inputs[f];
    std::unordered_map<std::string_view, int> bindings;  // top-level names bound to calls, and how often
    for (const auto& bound : file.bound_calls) {
      if (bound.ctx.function < 0) ++bindings[bound.target_text.view()];
    }
    for (const auto& bound : file.bound_calls) {
      const std::string_view name = bound.target_text.view();
      if (bound.ctx.function >= 0 || name.empty() || name.find_first_of(".[,( ") != std::string_view::npos)
        continue;  // a plain local
      const auto call = std::find_if(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& c) {
        return c.at.start_byte == bound.call_start_byte;
      });
      if (call == file.calls.end()) continue;
      if (bindings[name] > 1) continue;  // rebound: the uses below may be another value's
      bool generation = false;
      bool other = false;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> preparing{{call->at.line, call->at.end_line}};
      for (const auto& use : file.calls) {
        if (use.ctx.function != bound.ctx.function || use.at.start_byte < call->at.end_byte) continue;
        const Use how = use_in(use, name);
        generation |= how == Use::generation;
        other |= how == Use::other;
        if (how == Use::preparation) preparing.emplace_back(use.at.line, use.at.end_line);
      }
      if (generation && !other) lines.insert(lines.end(), preparing.begin(), preparing.end());
    }
    std::sort(lines.begin(), lines.end());
  }
}

}  // namespace tr2audit::program
