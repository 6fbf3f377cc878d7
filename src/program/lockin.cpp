// Lock-in through the repo's own code. A function is lock-in when its body runs GPU-only code unguarded
// (a call through a compiled extension's handle, a call the rules call GPU-only, a CUDA build or load,
// or it is a Triton-style kernel), or when it calls a lock-in function unguarded: a worklist over the
// reversed call graph from the seeds. Then one `lock-in-call` pattern per call site where code that
// nothing calls by name (a module's forward, a script, a training step reached by dispatch) names a
// lock-in function: the link closest to the entry point, with the chain down to the kernel.
#include <algorithm>
#include <deque>
#include <set>

#include "program/lockin_seeds.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr std::uint16_t k_gates =
    facts::guard_bit(facts::Guard::cuda_available) | facts::guard_bit(facts::Guard::import_error_fallback) |
    facts::guard_bit(facts::Guard::device_branch) | facts::guard_bit(facts::Guard::neuron_branch) |
    facts::guard_bit(facts::Guard::type_checking) | facts::guard_bit(facts::Guard::opt_in);
constexpr std::size_t k_max_links = 7;

bool is_neuron_module(std::string_view dotted) {
  for (std::string_view root :
       {"torch_neuronx", "neuronx_distributed", "libneuronxla", "neuronxcc", "optimum.neuron"}) {
    if (dotted == root || (starts_with(dotted, root) && dotted.size() > root.size() && dotted[root.size()] == '.'))
      return true;
  }
  return false;
}

// `CUDAExtension(...)` in setup.py declares a build; it runs nothing when the repo's code runs.
bool is_build_declaration(const facts::CallFact& call) {
  const std::string_view last = call.callee.last_segment();
  return call.callee.starts_with("torch.utils.cpp_extension") &&
         (last == "CUDAExtension" || last == "CppExtension" || last == "BuildExtension");
}

class LockinPass {
 public:
  explicit LockinPass(Program::Impl& impl) : m_impl(impl), m_names(collect_extension_names(impl.files)) {}

  void run() {
    const std::size_t count = m_impl.files.size();
    m_impl.lockin.resize(count);
    m_impl.derived.resize(count);
    m_loaders.resize(count);
    for (std::size_t f = 0; f < count; ++f) {
      m_impl.lockin[f].resize(m_impl.files[f].functions.size() + 1);
      m_loaders[f].assign(m_impl.files[f].functions.size(), 0);
    }
    find_loaders();
    for (std::uint32_t f = 0; f < count; ++f) {
      if (!m_impl.files[f].is_test) seed_file(FileId{f});
    }
    propagate();
    for (std::uint32_t f = 0; f < count; ++f) {
      if (!m_impl.files[f].is_test) report_frontier(FileId{f});
    }
    m_impl.neuron_stack = std::any_of(m_impl.files.begin(), m_impl.files.end(), [](const facts::FileFacts& file) {
      if (file.is_test) return false;
      if (is_neuron_module(file.module_name)) return true;
      return std::any_of(file.imports.begin(), file.imports.end(), [](const facts::ImportFact& i) {
        return is_neuron_module(i.target.dotted()) || is_neuron_module(i.module.dotted());
      });
    });
  }

 private:
  std::uint16_t site_guards(FileId file, const facts::Context& ctx) const {
    std::uint16_t guards = ctx.guards;
    const auto& branches = m_impl.files[file.value].branches;
    for (std::int32_t b = ctx.branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent)
      guards |= m_impl.branch_guards[file.value][static_cast<std::size_t>(b)];
    return guards;
  }

  bool edge_gated(FileId file, const Edge& edge) const {
    std::uint16_t guards = edge.guards;
    const auto& branches = m_impl.files[file.value].branches;
    for (std::int32_t b = edge.branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent)
      guards |= m_impl.branch_guards[file.value][static_cast<std::size_t>(b)];
    return (guards & k_gates) != 0;
  }

  // Functions whose body builds or loads a compiled CUDA extension: their value is an extension handle.
  void find_loaders() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const SeedFinder finder(m_impl, m_names, FileId{f});
      for (const auto& call : m_impl.files[f].calls) {
        if (call.ctx.function >= 0 && finder.loads_extension(call))
          m_loaders[f][static_cast<std::size_t>(call.ctx.function)] = 1;
      }
    }
  }

  void seed(FunctionId fn, std::string what, bool library = false) {
    LockinState& state = m_impl.lockin[fn.file.value][m_impl.slot(fn)];
    if (state.lockin) return;
    state.lockin = true;
    state.seed = static_cast<std::uint32_t>(m_impl.lockin_seeds.size());
    m_impl.lockin_seeds.push_back(std::move(what));
    state.library = library;
    m_queue.push_back(fn);
  }

  void seed_file(FileId file) {
    const auto& facts = m_impl.files[file.value];
    SeedFinder finder(m_impl, m_names, file);
    finder.collect_handles(m_loaders);
    const auto& knowledge = m_impl.lockin_knowledge;
    for (const auto& call : facts.calls) {
      const bool gated = (site_guards(file, call.ctx) & k_gates) != 0;
      const FunctionId at = function_at(file, call.ctx);
      const std::string extension = finder.extension_call(call, m_loaders);
      if (!extension.empty()) {
        m_impl.derived[file.value].push_back(
            facts::PatternFact{"extension-call", FactString(extension), call.at, call.ctx});
        if (!gated) seed(at, extension + " (compiled extension)");
      } else if (gated) {
        continue;
      } else if (knowledge.kernel_call && !m_impl.symbols->is_local_root(call.callee.first_segment()) &&
                 !portable_python_op_called(m_impl, call.callee.dotted()) && !is_build_declaration(call) &&
                 knowledge.kernel_call(call)) {
        // The repo's own package (flash_attn.* inside flash-attention), and its own Python ops for any
        // device (`torch.ops.ns.op` of a `@torch.library.custom_op`), are judged by their code instead.
        seed(at, call.callee.empty() ? call.callee_text : call.callee.dotted(),
             knowledge.library_call && knowledge.library_call(call));
      } else if (finder.loads_extension(call)) {
        seed(at, (call.callee.empty() ? call.callee_text : call.callee.dotted()) + " (CUDA extension)");
      }
    }
    if (!knowledge.kernel_decorator) return;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(facts.functions.size()); ++i) {
      for (const auto& decorator : facts.functions[static_cast<std::size_t>(i)].decorators) {
        if (knowledge.kernel_decorator(decorator)) {
          seed(FunctionId{file, i}, "@" + decorator.dotted() + " kernel");
          m_kernels.insert({file.value, i});
          break;
        }
      }
    }
  }

  void build_callers() {
    m_callers.resize(m_impl.files.size());
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) m_callers[f].resize(m_impl.files[f].functions.size() + 1);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.files[f].is_test) continue;
      const auto& per_slot = m_impl.edges[f];
      for (std::size_t s = 0; s < per_slot.size(); ++s) {
        const FunctionId caller{FileId{f}, s == m_impl.files[f].functions.size() ? -1 : static_cast<std::int32_t>(s)};
        for (const auto& edge : per_slot[s]) {
          // A call that may reach one of several classes (a registry, a typed attribute) is not lock-in
          // by itself: the configuration picks the class.
          // A config made here builds its component later: the build, not this call, runs the component.
          if (edge.target.index < -1 || edge.dispatch || edge.deferred || edge_gated(FileId{f}, edge)) continue;
          m_callers[edge.target.file.value][m_impl.slot(edge.target)].push_back({caller, edge.by_name});
        }
      }
    }
  }

  void propagate() {
    build_callers();
    while (!m_queue.empty()) {
      const FunctionId callee = m_queue.front();
      m_queue.pop_front();
      for (const auto& [caller, by_name] : m_callers[callee.file.value][m_impl.slot(callee)]) {
        LockinState& state = m_impl.lockin[caller.file.value][m_impl.slot(caller)];
        if (state.lockin) continue;
        state.lockin = true;
        state.has_next = true;
        state.next = callee;
        m_queue.push_back(caller);
      }
    }
  }

  // Code that some repo function calls by name is reported at that caller instead. A module body's
  // call (`main()` under `if __name__ == "__main__":`) starts a run rather than naming a kernel wrapper.
  bool called_by_name(FunctionId fn) const {
    if (fn.index < 0) return false;
    const auto& callers = m_callers[fn.file.value][m_impl.slot(fn)];
    return std::any_of(callers.begin(), callers.end(), [](const auto& c) { return c.second && c.first.index >= 0; });
  }

  // The chain from fn ends in a CUDA-only library call rather than a kernel, op or extension.
  bool reaches_library(FunctionId fn) const {
    std::vector<FunctionId> seen{fn};
    for (;;) {
      const LockinState& state = m_impl.lockin[fn.file.value][m_impl.slot(fn)];
      if (!state.has_next) return state.library;
      fn = state.next;
      if (std::find(seen.begin(), seen.end(), fn) != seen.end()) return false;
      seen.push_back(fn);
    }
  }

  bool is_entry(FunctionId fn) const {
    return std::any_of(m_impl.entries.begin(), m_impl.entries.end(),
                       [&](const EntryPoint& e) { return e.function == fn; });
  }

  void report_frontier(FileId file) {
    const auto& facts = m_impl.files[file.value];
    const auto& per_slot = m_impl.edges[file.value];
    std::set<std::int32_t> reported;
    for (std::size_t s = 0; s < per_slot.size(); ++s) {
      const FunctionId caller{file, s == facts.functions.size() ? -1 : static_cast<std::int32_t>(s)};
      // Calls inside a kernel (a @cute.jit device function calling another) are kernel code, reported as such.
      if (called_by_name(caller) || m_kernels.count({file.value, caller.index}) != 0) continue;
      for (const auto& edge : per_slot[s]) {
        if (!edge.by_name || edge.dispatch || edge.call < 0 || edge.target.index < 0) continue;
        if (!m_impl.lockin[edge.target.file.value][m_impl.slot(edge.target)].lockin || is_entry(edge.target)) continue;
        // A training run's body that calls the function only to run it outside training (a notebook's
        // one `run_validation(...)` before it fine-tunes): the callee's own calls carry the chain, in the
        // role it runs in, and this call site would lend it the run's role.
        if ((edge.reached_as & training_roles()).none() && edge.reached_as.any() &&
            (m_impl.at(caller).roles & training_roles()).any())
          continue;
        const auto& call = facts.calls[static_cast<std::size_t>(edge.call)];
        if (call.ctx.has(facts::Guard::main_block) || !reported.insert(edge.call).second) continue;
        m_impl.derived[file.value].push_back(
            facts::PatternFact{reaches_library(edge.target) ? "lock-in-library-call" : "lock-in-call",
                               FactString(lockin_chain(m_impl, caller, edge.target)), call.at, call.ctx});
      }
    }
    report_lazy_imports(file);
  }

  // `from unsloth.executor import unsloth_ex` inside a function: importing a repo module runs its top
  // level, and when that registers or launches GPU-only code the import is where the code path takes it on.
  // Module-level imports are left to the calls that use what they bind.
  void report_lazy_imports(FileId file) {
    const auto& facts = m_impl.files[file.value];
    for (std::size_t i = 0; i < facts.imports.size(); ++i) {
      const auto& fact = facts.imports[i];
      if (fact.ctx.function < 0) continue;
      const std::optional<FileId> target = import_target(m_impl, file, i);
      if (!target || m_impl.files[target->value].is_test) continue;
      const FunctionId body{*target, -1};
      if (!m_impl.lockin[target->value][m_impl.slot(body)].lockin) continue;
      const FunctionId caller{file, fact.ctx.function};
      const std::string detail = "importing `" + std::string(m_impl.files[target->value].module_name) +
                                 "` runs its top level: " + lockin_chain(m_impl, caller, body);
      m_impl.derived[file.value].push_back(
          facts::PatternFact{reaches_library(body) ? "lock-in-library-call" : "lock-in-call", FactString(detail),
                             fact.statement, fact.ctx});
    }
  }

  Program::Impl& m_impl;
  ExtensionNames m_names;
  Loaders m_loaders;
  std::deque<FunctionId> m_queue;
  std::set<std::pair<std::uint32_t, std::int32_t>> m_kernels;  // (file, function) of decorated kernels
  std::vector<std::vector<std::vector<std::pair<FunctionId, bool>>>> m_callers;  // per callee: (caller, by name)
};

std::string short_name(const Program::Impl& impl, FunctionId fn, bool with_module) {
  const auto& facts = impl.files[fn.file.value];
  std::string module = facts.module_name.empty() ? facts.path : facts.module_name;
  if (const auto dot = module.rfind('.'); dot != std::string::npos && !facts.module_name.empty())
    module = module.substr(dot + 1);
  if (fn.index < 0) return module;
  const FactString& qualname = facts.functions[static_cast<std::size_t>(fn.index)].qualname;
  return with_module ? module + "." + qualname : qualname;
}

}  // namespace

std::string lockin_chain(const Program::Impl& impl, FunctionId from, FunctionId to) {
  std::vector<FunctionId> links{from, to};
  while (links.size() < k_max_links) {
    const LockinState& state = impl.lockin[links.back().file.value][impl.slot(links.back())];
    if (!state.has_next || std::find(links.begin(), links.end(), state.next) != links.end()) break;
    links.push_back(state.next);
  }
  std::string out;
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (i > 0) out += " → ";
    out += short_name(impl, links[i], i > 0 && links[i].file.value != links[i - 1].file.value);
  }
  const LockinState& last = impl.lockin[links.back().file.value][impl.slot(links.back())];
  if (!last.has_next && !impl.lockin_seeds[last.seed].empty())
    out += " → " + impl.lockin_seeds[last.seed];
  else if (last.has_next)
    out += " → …";
  return out;
}

void propagate_lockin(Program::Impl& impl) {
  LockinPass(impl).run();
}

}  // namespace tr2audit::program
