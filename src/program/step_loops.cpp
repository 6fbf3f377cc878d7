// program/step_loops: loops that run a training step through a call. The per-file facts know the loops that call
// backward in their own body (LoopInfo::calls_backward). A driver that hands each batch to a step method of its own
// (`for batch in self.loader: loss = self.distill_batch(batch)`, distill_batch calling backward and the optimizer
// step) trains in that loop just the same: its per-batch code runs every step, and what sits after the loop in an
// epoch loop runs once per epoch. This pass finds such loops once the call graph links the calls.
#include <algorithm>
#include <unordered_set>

#include "program/call_graph_support.hpp"
#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// What a piece of code does towards a training step: a backward, an optimizer update, or both.
constexpr std::uint8_t k_backward = 1;
constexpr std::uint8_t k_update = 2;
constexpr std::uint8_t k_whole_step = k_backward | k_update;

// Delegation chains of step pieces (`train_step` -> `self._backward_and_step(loss)`) are short.
constexpr int k_step_rounds = 4;

// A call that certainly runs its target: not a link by name, a pick among several classes, a patch, a Ray actor's
// remote method or a construction.
bool certain_call(const Edge& edge) {
  return edge.call >= 0 && !edge.constructs && !edge.dispatch && !edge.name_linked && !edge.remote && !edge.patches &&
         edge.target.index >= 0;
}

std::uint8_t step_work(const facts::CallFact& call) {
  return runs_backward(call) ? k_backward : steps_optimizer(call) ? k_update : 0;
}

bool epoch_loop(const facts::LoopInfo& loop) {
  return to_lower(loop.target_text).find("epoch") != std::string::npos ||
         to_lower(loop.iter_text).find("epoch") != std::string::npos;
}

// A call that runs one of several methods: the implementations a typed attribute or a registry may hold, or the
// methods of that name (`self.pipeline_engine.train_batch_iter(...)` in nanotron's step reaches each engine's).
bool one_of_several(const Edge& edge) {
  return edge.call >= 0 && !edge.constructs && !edge.remote && !edge.patches && edge.target.index >= 0 &&
         (edge.dispatch || edge.name_linked);
}

// `@abstractmethod`: never runs itself.
bool abstract_method(const facts::FunctionInfo& fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(),
                     [](const QualifiedName& d) { return ends_with(d.dotted(), "abstractmethod"); });
}

// Per file, per function and per loop, the step work the code does itself or through certain calls of step pieces:
// functions that do part of a step (or all of it) and drive no loop that does a whole step. A loop whose work adds up
// to a whole step through such calls trains.
class StepLoops {
 public:
  explicit StepLoops(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    const std::size_t n = m_impl.files.size();
    m_function.resize(n);
    m_loop.resize(n);
    for (std::uint32_t f = 0; f < n; ++f) {
      const auto& file = m_impl.files[f];
      m_function[f].assign(file.functions.size(), 0);
      m_loop[f].assign(file.loops.size(), 0);
      for (const auto& call : file.calls) {
        const std::uint8_t work = step_work(call);
        if (work == 0) continue;
        if (call.ctx.function >= 0) m_function[f][static_cast<std::size_t>(call.ctx.function)] |= work;
        for (std::int32_t loop = call.ctx.loop; loop >= 0; loop = file.loops[static_cast<std::size_t>(loop)].parent)
          m_loop[f][static_cast<std::size_t>(loop)] |= work;
      }
    }
    for (int round = 0; round < k_step_rounds; ++round) {
      if (!add_piece_calls()) break;
    }
    mark_loops();
    refresh_edges();
  }

 private:
  bool drives(std::uint32_t f, std::int32_t function) const {
    const auto& loops = m_impl.files[f].loops;
    for (std::size_t i = 0; i < loops.size(); ++i) {
      if (loops[i].function == function && m_loop[f][i] == k_whole_step) return true;
    }
    return false;
  }

  // A function that does step work and drives no loop of whole steps. (Not a module's forward or __call__: a VQ
  // codebook's forward that runs backward is no step its callers' loops run.)
  bool is_piece(FunctionId fn) const {
    if (fn.index < 0) return false;
    const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
    return m_function[fn.file.value][static_cast<std::size_t>(fn.index)] != 0 && info.name != "forward" &&
           info.name != "__call__" && !drives(fn.file.value, fn.index);
  }

  std::uint8_t piece_work(FunctionId fn) const {
    return is_piece(fn) ? m_function[fn.file.value][static_cast<std::size_t>(fn.index)] : 0;
  }

  // One round: every certain call of a step piece adds the piece's work to its caller and to the loops around the
  // call; so does a call of one of several methods, with the work every implementation among them does (abstract
  // methods aside). True when some work grew.
  bool add_piece_calls() {
    bool grew = false;
    std::vector<std::pair<std::int32_t, std::uint8_t>> several;  // (call, work an implementation does)
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      for (std::size_t slot = 0; slot < m_impl.edges[f].size(); ++slot) {
        several.clear();
        for (const Edge& edge : m_impl.edges[f][slot]) {
          if (certain_call(edge)) {
            if (const std::uint8_t work = piece_work(edge.target)) grew |= add_work(f, slot, edge.call, work);
          } else if (one_of_several(edge)) {
            const auto& target =
                m_impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)];
            if (!abstract_method(target)) several.emplace_back(edge.call, piece_work(edge.target));
          }
        }
        std::sort(several.begin(), several.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < several.size();) {
          std::uint8_t work = k_whole_step;
          std::size_t j = i;
          for (; j < several.size() && several[j].first == several[i].first; ++j) work &= several[j].second;
          if (work != 0) grew |= add_work(f, slot, several[i].first, work);
          i = j;
        }
      }
    }
    return grew;
  }

  // The caller in `slot` does `work` through call `call`: so do the loops around the call. True when some grew.
  bool add_work(std::uint32_t f, std::size_t slot, std::int32_t call, std::uint8_t work) {
    const auto& file = m_impl.files[f];
    bool grew = false;
    if (slot < file.functions.size() && (m_function[f][slot] | work) != m_function[f][slot]) {
      m_function[f][slot] |= work;
      grew = true;
    }
    for (std::int32_t loop = file.calls[static_cast<std::size_t>(call)].ctx.loop; loop >= 0;
         loop = file.loops[static_cast<std::size_t>(loop)].parent) {
      auto& have = m_loop[f][static_cast<std::size_t>(loop)];
      if ((have | work) == have) continue;
      have |= work;
      grew = true;
    }
    return grew;
  }

  // Functions some loop calls that is no epoch loop (`for _ in range(steps): train_step(model, batches)`): a loop of
  // theirs that adds up to a step (`for _ in range(grad_accum): backward_step(model, loss); model.step()`) runs
  // micro-batches inside one step, not the steps. (`for epoch in range(epochs): self.train_epoch()` calls a function
  // whose loop is the step loop.)
  std::vector<std::vector<char>> called_per_step() const {
    std::vector<std::vector<char>> out(m_impl.files.size());
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) out[f].assign(m_impl.files[f].functions.size(), 0);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      for (const auto& edges : m_impl.edges[f]) {
        for (const Edge& edge : edges) {
          if (edge.call < 0 || edge.constructs || edge.target.index < 0) continue;
          const std::int32_t loop = file.calls[static_cast<std::size_t>(edge.call)].ctx.loop;
          if (loop < 0 || epoch_loop(file.loops[static_cast<std::size_t>(loop)])) continue;
          out[edge.target.file.value][static_cast<std::size_t>(edge.target.index)] = 1;
        }
      }
    }
    return out;
  }

  // Loops that run whole steps only through calls (a loop that calls backward or steps the optimizer itself is a
  // training loop in the facts already).
  void mark_loops() {
    const auto per_step = called_per_step();
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      for (std::size_t i = 0; i < file.loops.size(); ++i) {
        const auto& loop = file.loops[i];
        if (m_loop[f][i] != k_whole_step || loop.calls_backward) continue;
        if (loop.function >= 0 && per_step[f][static_cast<std::size_t>(loop.function)]) continue;
        auto& marks = m_impl.step_loops[f];
        if (marks.empty()) marks.assign(file.loops.size(), 0);
        // Its own body completes the step when no nested loop does.
        bool nested = false;
        for (std::size_t child = 0; child < file.loops.size(); ++child)
          nested |= file.loops[child].parent == static_cast<std::int32_t>(i) && m_loop[f][child] == k_whole_step;
        marks[i] = nested ? k_step_nested : k_step_in_body;
      }
    }
  }

  // The call graph set its edges' loop flags from the per-file facts; where a loop trains through calls, they
  // change.
  void refresh_edges() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.step_loops[f].empty()) continue;
      const FileId id{f};
      const auto& file = m_impl.files[f];
      for (auto& edges : m_impl.edges[f]) {
        for (Edge& edge : edges) {
          if (edge.call < 0) continue;
          const facts::Context& ctx = file.calls[static_cast<std::size_t>(edge.call)].ctx;
          edge.in_training_loop = in_training_loop(m_impl, id, ctx);
          edge.periodic = ctx.has(facts::Guard::periodic) || once_per_epoch(m_impl, id, ctx);
        }
      }
    }
  }

  Program::Impl& m_impl;
  std::vector<std::vector<std::uint8_t>> m_function;  ///< per file, per function: its step work
  std::vector<std::vector<std::uint8_t>> m_loop;      ///< per file, per loop: the step work of its calls and the
                                                      ///< step pieces it calls, nested loops included
};

}  // namespace

void find_step_loops(Program::Impl& impl) {
  impl.step_loops.assign(impl.files.size(), {});
  StepLoops(impl).run();
}

bool steps_in_body(const Program::Impl& impl, FileId file, std::int32_t loop) {
  if (loop < 0 || file.value >= impl.step_loops.size()) return false;
  const auto& marks = impl.step_loops[file.value];
  return !marks.empty() && marks[static_cast<std::size_t>(loop)] == k_step_in_body;
}

bool trains_in_loop(const Program::Impl& impl, FileId file, std::int32_t loop) {
  if (loop < 0) return false;
  if (impl.files[file.value].loops[static_cast<std::size_t>(loop)].calls_backward) return true;
  if (file.value >= impl.step_loops.size()) return false;
  const auto& marks = impl.step_loops[file.value];
  return !marks.empty() && marks[static_cast<std::size_t>(loop)] != 0;
}

bool in_training_loop(const Program::Impl& impl, FileId file, const facts::Context& ctx) {
  const auto& loops = impl.files[file.value].loops;
  for (std::int32_t loop = ctx.loop; loop >= 0; loop = loops[static_cast<std::size_t>(loop)].parent) {
    if (trains_in_loop(impl, file, loop)) return true;
  }
  return false;
}

bool drives_training_loop(const Program::Impl& impl, FileId file, std::int32_t function) {
  const auto& loops = impl.files[file.value].loops;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (loops[i].function == function && trains_in_loop(impl, file, static_cast<std::int32_t>(i))) return true;
  }
  return false;
}

void mark_consumed_generators(Program::Impl& impl) {
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const FileId id{f};
    const auto& file = impl.files[f];
    if (file.is_test) continue;
    for (const auto& consumer : file.calls) {
      // `next(train_dl)` inside the training loop.
      if (consumer.callee_text != "next" || consumer.args.empty() ||
          consumer.args[0].kind != facts::LiteralKind::name || !in_training_loop(impl, id, consumer.ctx))
        continue;
      const std::string_view name = consumer.args[0].value.view();
      for (const auto& bound : file.bound_calls) {
        // `train_dl = cycle(TRAIN_MAX_LENGTH)` in the same scope, before.
        if (bound.target_text != name || bound.ctx.function != consumer.ctx.function ||
            bound.call_start_byte > consumer.at.start_byte)
          continue;
        const std::size_t slot =
            bound.ctx.function < 0 ? file.functions.size() : static_cast<std::size_t>(bound.ctx.function);
        for (const Edge& edge : impl.edges[f][slot]) {
          if (edge.call < 0 || edge.constructs || edge.target.index < 0 ||
              file.calls[static_cast<std::size_t>(edge.call)].at.start_byte != bound.call_start_byte)
            continue;
          const auto& target =
              impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)];
          if (!target.is_generator) continue;
          FunctionState& state = impl.at(edge.target);
          state.roles.set(static_cast<std::size_t>(Role::data));
          state.repeats = true;
        }
      }
    }
  }
}

bool drives_epoch_loop(const Program::Impl& impl, FileId file, std::int32_t function) {
  if (function < 0 || file.value >= impl.edges.size()) return false;
  const auto& facts = impl.files[file.value];
  for (const Edge& edge : impl.edges[file.value][static_cast<std::size_t>(function)]) {
    if (edge.call < 0 || edge.constructs || edge.dispatch || edge.name_linked || edge.target.index < 0) continue;
    const std::int32_t loop = facts.calls[static_cast<std::size_t>(edge.call)].ctx.loop;
    if (loop >= 0 && facts.loops[static_cast<std::size_t>(loop)].function == function &&
        drives_training_loop(impl, edge.target.file, edge.target.index))
      return true;
  }
  return false;
}

namespace {

// A method name every optimizer, module or runner has: a call of it names no particular class.
bool shared_verb(std::string_view name) {
  for (std::string_view verb : {"step", "train", "run", "update", "forward", "__call__", "eval", "apply"}) {
    if (name == verb) return true;
  }
  return false;
}

}  // namespace

std::vector<std::vector<char>> reached_or_named(const Program::Impl& impl) {
  std::vector<std::vector<char>> called(impl.files.size());
  for (std::size_t f = 0; f < impl.files.size(); ++f) called[f].assign(impl.files[f].functions.size(), 0);
  for (const auto& file_edges : impl.edges) {
    for (const auto& edges : file_edges) {
      for (const Edge& edge : edges) {
        if (edge.target.index >= 0) called[edge.target.file.value][static_cast<std::size_t>(edge.target.index)] = 1;
      }
    }
  }
  // The repo's own code names it: a call by a name that says which (`trainer.fit()` on a receiver of unknown type; not
  // `x.step()` or `x.run()`, which every optimizer or runner has), a name used as a value or in a dispatch table, a
  // config string (MetaCLIP's `engine = "train_altogether"`).
  std::unordered_set<std::string_view> named;
  for (const auto& file : impl.files) {
    if (file.is_test) continue;
    for (const auto& call : file.calls) {
      if (!call.method.empty()) named.insert(call.method.view());
    }
    for (const auto& name : file.used_names) named.insert(name.view());
    for (const auto& entry : file.dispatch_entries) named.insert(entry.name.view());
    for (const auto& assign : file.assigns) {
      if (assign.value.kind == facts::LiteralKind::string) named.insert(assign.value.value.view());
    }
  }
  for (std::size_t f = 0; f < impl.files.size(); ++f) {
    const auto& functions = impl.files[f].functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      const std::string_view name = functions[i].name.view();
      if (!called[f][i] && named.count(name) && !shared_verb(name)) called[f][i] = 1;
    }
  }
  return called;
}

}  // namespace tr2audit::program
