// The calls of the repo's setter methods (`def set_use_memory_efficient_attention(self, xformers, mem_eff):
// self.use_memory_efficient_attention_xformers = xformers`), so that a switch attribute a setter binds is judged
// by what its callers pass (program/options, switch_gate): kohya-ss/sd-scripts turns xformers attention on only
// with `unet.set_use_memory_efficient_attention(True, False)` under `elif xformers:`.
#include <algorithm>

#include "program/option_values.hpp"

namespace tr2audit::program::option_values {
namespace {

// More calls than this of one name, and the name is a common method's (`train`, `update`) more than one
// class's setter: too many classes to tell which one a call reaches.
constexpr std::size_t k_max_setter_calls = 64;

}  // namespace

SetterCalls::SetterCalls(const std::vector<facts::FileFacts>& files, const std::vector<char>& main_block_self_test)
    : m_files(files) {
  for (const auto& file : files) {
    for (const auto& assign : file.assigns) {
      if (const auto setter = setter_binding(file, assign)) m_calls.try_emplace(setter->method->name.view());
    }
  }
  if (m_calls.empty()) return;
  for (std::uint32_t f = 0; f < files.size(); ++f) {
    const auto& file = files[f];
    if (file.is_test) continue;
    const bool self_test = f < main_block_self_test.size() && main_block_self_test[f] != 0;
    for (const auto& call : file.calls) {
      if (call.method.empty()) continue;
      const auto it = m_calls.find(call.method.view());
      if (it == m_calls.end()) continue;
      if (self_test && call.ctx.function < 0 && call.ctx.has(facts::Guard::main_block)) continue;
      it->second.emplace_back(f, &call);
    }
  }
}

std::optional<std::vector<SetterCall>> SetterCalls::calls(const SwitchBindings::Setter& setter) const {
  const auto it = m_calls.find(setter.method->name.view());
  if (it == m_calls.end() || it->second.size() > k_max_setter_calls) return std::nullopt;
  std::vector<SetterCall> out;
  for (const auto& [f, call] : it->second) {
    const auto& file = m_files[f];
    const facts::Argument* value = nullptr;
    std::size_t positional = 0;
    for (const auto& argument : call->args) {
      if (argument.is_splat) return std::nullopt;
      if (argument.keyword.empty() ? positional++ == setter.position : argument.keyword == setter.parameter) {
        value = &argument;
        break;
      }
    }
    // `def set_use_memory_efficient_attention(self, xformers, mem_eff): self.attn1.set_use_memory_efficient_attention(
    // xformers, mem_eff)`: a parent module's setter hands its own parameter down; its callers decide.
    if (value && value->kind == facts::LiteralKind::name && call->ctx.function >= 0) {
      const auto& enclosing = file.functions[static_cast<std::size_t>(call->ctx.function)];
      if (enclosing.name == setter.method->name && is_parameter(enclosing, value->value.view())) continue;
    }
    out.push_back(SetterCall{f, call, value});
  }
  return out;
}

}  // namespace tr2audit::program::option_values
