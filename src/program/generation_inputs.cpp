// Statements that build a generation demo's input (program/model.hpp, Impl::generation_inputs): a name bound at
// a script's or notebook's top level to a call (`model_input = tokenizer(prompt, return_tensors="pt").to("cuda")`)
// that the top level hands only to `.generate(...)` calls. A fine-tuning notebook prompts the model before and
// after training this way; the statement is inference, whatever the cells around it train. (Inside a function,
// the roles of the function that generates already say where it runs: an evaluation loop keeps its place.)
// Also Program::fixed_buffer_decode: whether a generation call's repo decoder keeps one shape per step.
#include <algorithm>
#include <limits>
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

/// A call that runs training itself: backward, an optimizer step, `trainer.train()`/`fit()`, DeepSpeed's
/// `train_batch`.
bool trains(const facts::CallFact& call) {
  const std::string receiver = to_lower(call.receiver_text);
  const std::string_view method = call.method.view();
  return method == "backward" ||
         (method == "step" &&
          (receiver.find("optim") != std::string::npos || receiver.find("scaler") != std::string::npos)) ||
         ((method == "train" || method == "fit") && receiver.find("trainer") != std::string::npos) ||
         (method == "train_batch" && receiver.find("engine") != std::string::npos);
}

/// The last line of a script's or notebook's top-level training (0 when its top level does not train): a
/// top-level call that trains, or that calls a function running a training step, extended to the end of the
/// outermost top-level loop around it.
std::uint32_t last_training_line(const Program::Impl& impl, std::size_t f) {
  const facts::FileFacts& file = impl.files[f];
  std::vector<bool> calls_step(file.calls.size(), false);  // calls of a training entry point (`train(model)`)
  for (const Edge& edge : impl.edges[f][file.functions.size()]) {
    if (edge.call < 0 || edge.target.index < 0) continue;
    calls_step[static_cast<std::size_t>(edge.call)] =
        calls_step[static_cast<std::size_t>(edge.call)] ||
        std::any_of(impl.entries.begin(), impl.entries.end(), [&](const EntryPoint& entry) {
          return entry.function == edge.target && entry.role == Role::training_step;
        });
  }
  std::uint32_t last = 0;
  for (std::size_t c = 0; c < file.calls.size(); ++c) {
    const facts::CallFact& call = file.calls[c];
    if (call.ctx.function >= 0 || !(calls_step[c] || trains(call))) continue;
    std::uint32_t end = call.at.end_line;
    for (std::int32_t loop = call.ctx.loop; loop >= 0; loop = file.loops[static_cast<std::size_t>(loop)].parent)
      end = std::max(end, file.loops[static_cast<std::size_t>(loop)].at.end_line);
    last = std::max(last, end);
  }
  return last;
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
    // Everything after a script's or notebook's last top-level training statement runs once training is
    // over: saving, evaluating, a demo that reloads the model (Python defines nothing there in time for the
    // training to call it).
    if (runs_as_program(file)) {
      if (const std::uint32_t last = last_training_line(impl, f); last > 0)
        lines.emplace_back(last + 1, std::numeric_limits<std::uint32_t>::max());
    }
    std::sort(lines.begin(), lines.end());
  }
}

}  // namespace tr2audit::program

namespace tr2audit::program {
namespace {

/// `empty = torch.empty(max_returned_tokens, ...)` ... `idx = idx.index_copy(0, input_pos, idx_next)`: the
/// function allocates its output once and writes each token into it by index, and never grows a tensor by
/// concatenation. Its decode step is one shape however many tokens it makes.
bool decodes_into_fixed_buffer(const facts::FileFacts& file, std::int32_t function) {
  bool allocates = false;
  bool writes_by_index = false;
  for (const auto& call : file.calls) {
    if (call.ctx.function != function) continue;
    const std::string_view callee = call.callee.dotted();
    if (callee == "torch.cat" || callee == "torch.concat" || callee == "torch.concatenate" || callee == "torch.stack" ||
        callee == "torch.hstack" || callee == "torch.vstack" || call.method == "cat")
      return false;
    allocates |= callee == "torch.empty" || callee == "torch.zeros" || callee == "torch.full" || callee == "torch.ones";
    writes_by_index |= call.method == "index_copy" || call.method == "index_copy_" || call.method == "index_put_";
  }
  return allocates && writes_by_index;
}

}  // namespace

bool Program::fixed_buffer_decode(FileId file, std::uint32_t call) const {
  const auto& facts = m_impl->files[file.value];
  if (call >= facts.calls.size()) return false;
  const FunctionId caller{file, facts.calls[call].ctx.function};
  bool any = false;
  for (const Edge& edge : m_impl->edges[file.value][m_impl->slot(caller)]) {
    if (edge.call != static_cast<std::int32_t>(call) || edge.constructs || edge.target.index < 0) continue;
    if (!decodes_into_fixed_buffer(m_impl->files[edge.target.file.value], edge.target.index)) return false;
    any = true;
  }
  return any;
}

}  // namespace tr2audit::program
