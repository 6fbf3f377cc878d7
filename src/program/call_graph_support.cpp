// The call graph's support (program/call_graph_support.hpp, program/model.hpp): name filters, the script
// index, the subclass index and the loop facts an edge records.
#include "program/call_graph_support.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "tr2audit/core/text.hpp"

namespace tr2audit::program {

// Method names too generic to link by name alone: framework verbs, methods of tensors, modules, optimizers,
// containers and of handles to asynchronous work (futures, work handles, threads, streams, queues), which a
// receiver of unknown type is far more often than a repo class (`req.wait()` on a `batch_isend_irecv` handle).
bool is_generic_method(const std::string& name) {
  static constexpr std::string_view k_generic =
      " forward __init__ __call__ step update get run apply train eval to reset build load save item"
      " append extend backward zero_grad call clip clamp view reshape permute split chunk unbind numel"
      " size float half double long bool int cpu cuda detach clone copy copy_ fill_ zero_ keys values"
      " items pop format join strip replace read write close open sort index count encode decode"
      " flatten state_dict load_state_dict parameters named_parameters modules children named_modules"
      " register_buffer mean sum max min type expand repeat squeeze unsqueeze transpose contiguous"
      " numpy tolist add remove insert clear setdefault norm softmax sigmoid gather scatter masked_fill"
      " where nonzero unique topk argmax argmin cumsum prod all any new_zeros new_ones new_full"
      " index_select new_empty new_tensor type_as view_as expand_as repeat_interleave register register_module cat"
      " stack wait result done cancel cancelled start stop send recv acquire release notify notify_all"
      " synchronize record query flush is_alive is_set is_completed ";
  if (name.size() < 4 || name.front() == '_') return true;
  return k_generic.find(" " + name + " ") != std::string_view::npos;
}

// `self.kv_cache(input_pos, k, v)`: a KV cache runs only while decoding.
bool calls_kv_cache(const facts::CallFact& call) {
  const FactString& text = call.callee_text;
  const auto dot = text.rfind('.');
  const std::string_view last =
      dot == std::string::npos ? std::string_view(text) : std::string_view(text).substr(dot + 1);
  return last.find("kv_cache") != std::string_view::npos || last.find("past_key_value") != std::string_view::npos;
}

ScriptIndex index_scripts(const Program::Impl& impl) {
  ScriptIndex out;
  out.script.resize(impl.files.size());
  out.private_script.resize(impl.files.size());
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    out.script[f] = runs_as_program(impl.files[f]);
    out.private_script[f] = out.script[f] && impl.imported_by[f].empty();
  }
  return out;
}

bool calls_optional_library(const Program::Impl& impl, ClassId klass) {
  const auto& file = impl.files[klass.file.value];
  return std::any_of(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& call) {
    return call.ctx.klass == klass.index && call.ctx.function >= 0 && !call.callee.empty() &&
           call.ctx.has(facts::Guard::import_error_fallback);
  });
}

DispatchTableIndex index_dispatch_tables(const Program::Impl& impl) {
  DispatchTableIndex out;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test) continue;
    for (const auto& entry : file.dispatch_entries) {
      if (entry.name.empty()) continue;
      const Symbol symbol = impl.symbols->lookup_in_file(FileId{f}, entry.name);
      if (symbol.kind != Symbol::Kind::klass && symbol.kind != Symbol::Kind::function) continue;
      const bool optional = symbol.kind == Symbol::Kind::klass && calls_optional_library(impl, symbol.klass);
      out.tables[std::string(entry.table)].push_back(DispatchTableIndex::Entry{FileId{f}, symbol, optional});
    }
  }
  return out;
}

std::vector<TableTarget> table_targets(const Program::Impl& impl, const DispatchTableIndex& tables, FileId file,
                                       const facts::CallFact& call) {
  if (!call.method.empty() || !call.callee.empty() || tables.tables.empty()) return {};
  const std::string_view text = call.callee_text;
  const auto bracket = text.find('[');
  if (bracket == std::string_view::npos || bracket == 0 || text.back() != ']' ||
      !is_identifier(text.substr(0, bracket)))
    return {};
  const auto it = tables.tables.find(std::string(text.substr(0, bracket)));
  if (it == tables.tables.end()) return {};
  const auto& entries = it->second;
  const bool own = std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.file == file; });
  const auto& imports = impl.files[file.value].imports;
  const bool imported = std::any_of(imports.begin(), imports.end(),
                                    [&](const facts::ImportFact& imp) { return imp.bound_name == it->first; });
  if (!own && !imported) return {};
  std::vector<const DispatchTableIndex::Entry*> picked;
  for (const auto& entry : entries) {
    if (!own || entry.file == file) picked.push_back(&entry);
  }
  std::vector<TableTarget> out;
  for (const auto* entry : picked) {
    const bool fallback = picked.size() > 1 && entry->optional_library;
    out.push_back(TableTarget{entry->symbol,
                              fallback ? facts::guard_bit(facts::Guard::import_error_fallback) : std::uint16_t{0}});
  }
  return out;
}

namespace {

// The names a loop binds count steps or iterations: `step`, `global_step`, `it`, `iteration`, `i_iter`.
bool counts_steps(std::string_view target) {
  const std::string lower = to_lower(target);
  std::size_t start = 0;
  while (start < lower.size()) {
    std::size_t end = start;
    while (end < lower.size() && (std::isalnum(static_cast<unsigned char>(lower[end])) != 0)) ++end;
    const std::string_view word = std::string_view(lower).substr(start, end - start);
    if (word == "step" || word == "steps" || word == "it" || word == "iter" || word == "iteration") return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

bool runs_backward(const facts::CallFact& call) {
  return call.method == "backward" || call.callee.dotted() == "torch.autograd.backward";
}

bool steps_optimizer(const facts::CallFact& call) {
  if (call.callee.dotted() == "torch_xla.core.xla_model.optimizer_step") return true;
  if (call.method != "step") return false;
  const std::string receiver = to_lower(call.receiver_text);
  for (std::string_view word : {"optim", "scaler", "engine", "model"}) {
    if (receiver.find(word) != std::string::npos) return true;
  }
  return false;
}

bool once_per_epoch(const Program::Impl& impl, FileId id, const facts::Context& ctx) {
  if (ctx.loop < 0) return false;
  const auto& file = impl.files[id.value];
  // (A loop over a whole data loader, `for data in self.train_dataloader:`, is an epoch even where the step it runs
  // calls backward in a method of its own: `self.training_step(data)`. A nested loop that trains makes this one
  // train too: LoopInfo::calls_backward and the step loops count nested loops.)
  const auto over_loader = [](const facts::LoopInfo& loop) {
    return loop.kind == facts::LoopKind::for_loop && to_lower(loop.iter_text).find("loader") != std::string::npos;
  };
  // A loop over the data loader's batches is the step loop, whatever it nests (PPO/GRPO: a rollout per
  // batch, then optimisation epochs over its minibatches): its work runs every step.
  const std::string iter = to_lower(file.loops[static_cast<std::size_t>(ctx.loop)].iter_text);
  if (iter.find("loader") != std::string::npos || iter.find("batch") != std::string::npos) return false;
  // So is a loop that counts steps (`for step in range(start_step, total_steps):` around a loop over the models
  // it distils into, each stepping its optimizer).
  if (counts_steps(file.loops[static_cast<std::size_t>(ctx.loop)].target_text)) return false;
  // Gradient accumulation: the optimizer steps in this loop, the inner loop only runs micro-batches.
  for (const auto& call : file.calls) {
    if (call.ctx.loop != ctx.loop || call.method != "step") continue;
    const std::string receiver = to_lower(call.receiver_text);
    if (receiver.find("optim") != std::string::npos || receiver.find("scaler") != std::string::npos ||
        receiver.find("engine") != std::string::npos)
      return false;
  }
  for (std::size_t i = 0; i < file.loops.size(); ++i) {
    const auto& loop = file.loops[i];
    if (loop.parent == ctx.loop && (trains_in_loop(impl, id, static_cast<std::int32_t>(i)) || over_loader(loop)))
      return true;
  }
  return false;
}

std::string receiver_builder(const facts::CallFact& call) {
  if (!call.receiver_callee.empty()) return call.receiver_callee.dotted();
  const std::string_view text = call.receiver_text;
  const std::size_t paren = text.find('(');
  if (paren == std::string_view::npos || paren == 0) return {};
  const std::string_view name = text.substr(0, paren);
  return is_identifier(name) ? std::string(name) : std::string();
}

FunctionId function_at(FileId file, const facts::Context& ctx) {
  return FunctionId{file, ctx.function};
}

SubclassIndex index_subclasses(const Program::Impl& impl) {
  SubclassIndex out;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& classes = impl.files[f].classes;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(classes.size()); ++c) {
      for (std::size_t b = 0; b < classes[static_cast<std::size_t>(c)].bases.size(); ++b) {
        if (auto base = impl.symbols->base_class(ClassId{FileId{f}, c}, b))
          out[{base->file.value, base->index}].push_back(ClassId{FileId{f}, c});
      }
    }
  }
  return out;
}

}  // namespace tr2audit::program
