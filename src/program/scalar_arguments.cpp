// Keyword arguments every caller passes as Python numbers. A metrics logger converts what it is given
// (`for k, v in kwargs.items(): if isinstance(v, torch.Tensor): v = v.item()`), and the rules read that
// `.item()` as a host sync on every step. The call graph knows what the callers pass: when every call site of
// the function hands its `**kwargs` only numbers as written (`metric_logger.update(loss=loss_value)` after
// `loss_value = loss.item()`, `lr=optimizer.param_groups[0]["lr"]`; facts::Argument::scalar), no tensor
// reaches the conversion and its `.item()` never runs. One `**losses` splat, or a value of unknown type, keeps it.
#include <algorithm>
#include <map>
#include <utility>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// The name of the function's `**kwargs` parameter, empty when it has none.
std::string_view kwargs_parameter(const facts::FunctionInfo& fn) {
  for (const FactString& param : fn.params) {
    const std::string_view text = param.view();
    if (!starts_with(text, "**")) continue;
    const std::string_view name = text.substr(2, text.find_first_of(":= ", 2) - 2);
    return name;
  }
  return {};
}

// True when `.item()` on `receiver` sits in a loop of the function over `kwargs.items()` / `.values()` that
// binds the receiver's name.
bool reads_kwargs_value(const facts::FileFacts& file, const facts::CallFact& call, std::string_view kwargs) {
  for (std::int32_t l = call.ctx.loop; l >= 0; l = file.loops[static_cast<std::size_t>(l)].parent) {
    const facts::LoopInfo& loop = file.loops[static_cast<std::size_t>(l)];
    if (loop.function != call.ctx.function) return false;
    const std::string_view iter = loop.iter_text.view();
    if (iter != std::string(kwargs) + ".items()" && iter != std::string(kwargs) + ".values()") continue;
    const std::string_view targets = loop.target_text.view();
    for (std::size_t from = 0; from <= targets.size();) {
      const auto comma = targets.find(',', from);
      if (trim(targets.substr(from, comma == std::string_view::npos ? comma : comma - from)) == call.receiver_text)
        return true;
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
  }
  return false;
}

}  // namespace

void find_scalar_only_reads(Program::Impl& impl) {
  impl.scalar_reads.assign(impl.files.size(), {});
  // The `.item()` calls on `**kwargs` values, by function.
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<std::uint32_t>> reads;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    for (std::uint32_t c = 0; c < file.calls.size(); ++c) {
      const auto& call = file.calls[c];
      if (call.method != "item" || !call.callee.empty() || call.ctx.function < 0 || !call.args.empty()) continue;
      const std::string_view kwargs = kwargs_parameter(file.functions[static_cast<std::size_t>(call.ctx.function)]);
      if (kwargs.empty() || !reads_kwargs_value(file, call, kwargs)) continue;
      reads[{f, call.ctx.function}].push_back(c);
    }
  }
  if (reads.empty()) return;
  // Every call site that names the function (not a method linked by its name alone) passes numbers only.
  std::map<std::pair<std::uint32_t, std::int32_t>, std::pair<bool, bool>> callers;  // (seen, all scalar)
  for (std::uint32_t f = 0; f < impl.edges.size(); ++f) {
    for (const auto& slot : impl.edges[f]) {
      for (const Edge& edge : slot) {
        if (edge.call < 0 || edge.target.index < 0 || edge.name_linked) continue;
        const std::pair<std::uint32_t, std::int32_t> key{edge.target.file.value, edge.target.index};
        if (!reads.count(key)) continue;
        const auto& call = impl.files[f].calls[static_cast<std::size_t>(edge.call)];
        auto& [seen, scalar] = callers.try_emplace(key, false, true).first->second;
        seen = true;
        scalar =
            scalar &&
            std::all_of(call.args.begin(), call.args.end(),
                        [](const facts::Argument& arg) {
                          return arg.keyword.empty() || arg.scalar;  // (positional ones bind named parameters)
                        }) &&
            std::none_of(call.args.begin(), call.args.end(), [](const facts::Argument& arg) { return arg.is_splat; });
      }
    }
  }
  for (const auto& [key, calls] : reads) {
    const auto it = callers.find(key);
    if (it == callers.end() || !it->second.first || !it->second.second) continue;
    auto& out = impl.scalar_reads[key.first];
    out.insert(out.end(), calls.begin(), calls.end());
  }
  for (auto& out : impl.scalar_reads) std::sort(out.begin(), out.end());
}

}  // namespace tr2audit::program
