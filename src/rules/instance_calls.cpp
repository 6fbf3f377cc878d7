// rules/instance_calls: calls of an object that a library class built (`self.inner_attn =
// FlashAttention(...)` in `__init__`, then `self.inner_attn(qkv)` in `forward`; `loss_fn =
// CrossEntropyLoss(...)`, then `loss_fn(logits, labels)` every step). Calling such an object runs the
// library's module where the call is, so the construct's CUDA-only-library findings hold there too.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "match_detail.hpp"

namespace tr2audit::rules::detail {

std::vector<InstanceCall> instance_calls(const facts::FileFacts& file, const program::Program& program) {
  std::vector<InstanceCall> out;
  if (file.bound_calls.empty()) return out;
  std::unordered_map<std::uint32_t, std::uint32_t> call_at;  // CallFact::at.start_byte → index
  for (std::uint32_t i = 0; i < file.calls.size(); ++i) call_at.emplace(file.calls[i].at.start_byte, i);
  // (class or function, name) → the bound library construct; kNone when the name is bound to anything else too
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::map<std::tuple<bool, std::int32_t, std::string_view>, std::uint32_t> bound;
  for (const facts::BoundCall& b : file.bound_calls) {
    const std::string_view target = b.target_text.view();
    const bool attribute = target.rfind("self.", 0) == 0;
    if (attribute ? b.ctx.klass < 0 || target.find('.', 5) != std::string_view::npos
                  : target.find('.') != std::string_view::npos || b.ctx.function < 0)
      continue;
    const auto key = std::make_tuple(attribute, attribute ? b.ctx.klass : b.ctx.function, target);
    const auto it = call_at.find(b.call_start_byte);
    std::uint32_t construct = kNone;
    if (it != call_at.end()) {
      const facts::CallFact& call = file.calls[it->second];
      if (!call.callee.empty() && program.call_origin(call.callee) == facts::ImportOrigin::external)
        construct = it->second;
    }
    const auto [pos, inserted] = bound.emplace(key, construct);
    if (!inserted && (pos->second == kNone || construct == kNone ||
                      file.calls[pos->second].callee.dotted() != file.calls[construct].callee.dotted()))
      pos->second = kNone;
  }
  // A name also assigned something other than a call (`self.attn = None`, `self.attn = attn`) holds something
  // else at some point: not followed. (A call's own binding is an AssignFact too: the statement holds it.)
  for (const facts::AssignFact& a : file.assigns) {
    const std::string_view target = a.target_text.view();
    const bool attribute = target.rfind("self.", 0) == 0;
    const auto key = std::make_tuple(attribute, attribute ? a.ctx.klass : a.ctx.function, target);
    const auto it = bound.find(key);
    if (it == bound.end()) continue;
    const bool a_call = std::any_of(file.bound_calls.begin(), file.bound_calls.end(), [&](const facts::BoundCall& b) {
      return b.target_text.view() == target && b.call_start_byte >= a.at.start_byte &&
             b.call_start_byte < a.at.end_byte;
    });
    if (!a_call) it->second = kNone;
  }
  for (std::uint32_t i = 0; i < file.calls.size(); ++i) {
    const facts::CallFact& call = file.calls[i];
    const std::string_view text = call.callee_text.view();
    const bool attribute = text.rfind("self.", 0) == 0;
    if (attribute ? call.ctx.klass < 0 : call.ctx.function < 0 || !call.callee.empty()) continue;
    const auto it = bound.find(std::make_tuple(attribute, attribute ? call.ctx.klass : call.ctx.function, text));
    if (it == bound.end() || it->second == kNone || it->second == i) continue;
    // The construct itself (`self.norm = FusedLayerNorm(d)`) is no call of the instance; nor is a call in
    // the method that builds it before it exists.
    if (file.calls[it->second].at.start_byte >= call.at.start_byte &&
        file.calls[it->second].ctx.function == call.ctx.function)
      continue;
    out.push_back(InstanceCall{i, it->second});
  }
  return out;
}

}  // namespace tr2audit::rules::detail
