// Wrappers of followed ops. A repo function whose returned value is an op that rules follow through
// wrappers (`wrappers: true`: `def nonzero_tuple(x): return x.nonzero().unbind(1)`) is a wrapper of it;
// so is a function whose returned value calls a wrapper (`return nonzero_tuple(m)[0]`), found by a
// worklist over the reversed call graph, as lock-in propagates (program/lockin.cpp). Each call of a
// wrapper from code that does not itself return it becomes a `wrapped-op-call` pattern at the call
// site, with the chain down to the op (`nonzero_tuple → x.nonzero()`), matched by `pattern:` rules.
#include <algorithm>
#include <deque>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

constexpr std::size_t k_max_chain = 5;
constexpr std::size_t k_max_op_text = 48;

std::string op_text(const facts::CallFact& call) {
  if (call.method.empty() || !call.callee.empty())
    return (call.callee.empty() ? call.callee_text : call.callee.dotted()) + "()";
  std::string receiver = call.receiver_text;
  if (receiver.size() > k_max_op_text) receiver = "…";
  return receiver + "." + call.method + "()";
}

class WrapperPass {
 public:
  explicit WrapperPass(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    const std::size_t n = m_impl.files.size();
    m_wrappers.assign(n, {});
    m_impl.wrappers.assign(n, {});
    m_next.assign(n, {});
    m_returned.assign(n, {});
    for (std::size_t f = 0; f < n; ++f) {
      m_wrappers[f].assign(m_impl.files[f].functions.size(), {});
      m_next[f].assign(m_impl.files[f].functions.size(), FunctionId{FileId{0}, -2});
      m_returned[f].assign(m_impl.files[f].calls.size(), 0);
    }
    if (!m_impl.lockin_knowledge.wrapped_op) return;
    for (std::uint32_t f = 0; f < n; ++f) mark_returned(FileId{f});
    for (std::uint32_t f = 0; f < n; ++f) seed(FileId{f});
    propagate();
    for (std::uint32_t f = 0; f < n; ++f) report(FileId{f});
    for (std::size_t f = 0; f < n; ++f) {  // kept for `debug`: the functions that wrap an op
      for (std::size_t i = 0; i < m_wrappers[f].size(); ++i) {
        if (!m_wrappers[f][i].empty())
          m_impl.wrappers[f].emplace_back(static_cast<std::int32_t>(i), std::move(m_wrappers[f][i]));
      }
    }
  }

 private:
  // Calls that lie inside a value their function returns (the op a wrapper returns, or a wrapper it returns).
  void mark_returned(FileId file) {
    const auto& facts = m_impl.files[file.value];
    if (facts.is_test) return;
    std::vector<std::pair<std::uint32_t, std::size_t>> by_start;
    by_start.reserve(facts.calls.size());
    for (std::size_t c = 0; c < facts.calls.size(); ++c) by_start.emplace_back(facts.calls[c].at.start_byte, c);
    std::sort(by_start.begin(), by_start.end());
    for (const auto& value : facts.values) {
      if (value.sink != facts::ValueSink::returned || value.ctx.function < 0 || !value.name.empty()) continue;
      auto it =
          std::lower_bound(by_start.begin(), by_start.end(), std::make_pair(value.value.start_byte, std::size_t{0}));
      for (; it != by_start.end() && it->first < value.value.end_byte; ++it) {
        const auto& call = facts.calls[it->second];
        if (call.at.end_byte <= value.value.end_byte && call.ctx.function == value.ctx.function)
          m_returned[file.value][it->second] = 1;
      }
    }
  }

  void seed(FileId file) {
    const auto& facts = m_impl.files[file.value];
    if (facts.is_test) return;
    for (std::size_t c = 0; c < facts.calls.size(); ++c) {
      const auto& call = facts.calls[c];
      if (!m_returned[file.value][c] || call.ctx.function < 0 || runs_as_module(FunctionId{file, call.ctx.function}))
        continue;
      auto& chain = m_wrappers[file.value][static_cast<std::size_t>(call.ctx.function)];
      if (!chain.empty() || !m_impl.lockin_knowledge.wrapped_op(call)) continue;
      chain = op_text(call);
      m_queue.push_back(FunctionId{file, call.ctx.function});
    }
  }

  // Callers (by name, through a returned call) of each function.
  void propagate() {
    std::vector<std::vector<std::vector<FunctionId>>> callers(m_impl.files.size());
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) callers[f].resize(m_impl.files[f].functions.size());
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.files[f].is_test) continue;
      const auto& slots = m_impl.edges[f];
      for (std::size_t s = 0; s < m_impl.files[f].functions.size(); ++s) {
        for (const Edge& edge : slots[s]) {
          if (!edge.by_name || edge.call < 0 || edge.target.index < 0) continue;
          if (m_returned[f][static_cast<std::size_t>(edge.call)])
            callers[edge.target.file.value][static_cast<std::size_t>(edge.target.index)].push_back(
                FunctionId{FileId{f}, static_cast<std::int32_t>(s)});
        }
      }
    }
    while (!m_queue.empty()) {
      const FunctionId wrapper = m_queue.front();
      m_queue.pop_front();
      for (const FunctionId& caller : callers[wrapper.file.value][static_cast<std::size_t>(wrapper.index)]) {
        auto& chain = m_wrappers[caller.file.value][static_cast<std::size_t>(caller.index)];
        if (!chain.empty() || runs_as_module(caller)) continue;
        chain = m_wrappers[wrapper.file.value][static_cast<std::size_t>(wrapper.index)];
        m_next[caller.file.value][static_cast<std::size_t>(caller.index)] = wrapper;
        m_queue.push_back(caller);
      }
    }
  }

  // A module's forward or a callable's __call__ runs when the object is called, never by name: the
  // wrapper call it returns is reported there.
  bool runs_as_module(FunctionId fn) const {
    const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
    return info.klass >= 0 && (info.name == "forward" || info.name == "__call__");
  }

  std::string chain(FunctionId wrapper) const {
    std::string out;
    FunctionId at = wrapper;
    for (std::size_t links = 0; links < k_max_chain && at.index >= 0; ++links) {
      if (!out.empty()) out += k_chain_link;
      out += m_impl.files[at.file.value].functions[static_cast<std::size_t>(at.index)].qualname;
      at = m_next[at.file.value][static_cast<std::size_t>(at.index)];
    }
    return out + std::string(k_chain_link) + m_wrappers[wrapper.file.value][static_cast<std::size_t>(wrapper.index)];
  }

  void report(FileId file) {
    const auto& facts = m_impl.files[file.value];
    if (facts.is_test) return;
    const auto& slots = m_impl.edges[file.value];
    std::vector<char> reported(facts.calls.size(), 0);
    for (std::size_t s = 0; s < slots.size(); ++s) {
      for (const Edge& edge : slots[s]) {
        if (!edge.by_name || edge.call < 0 || edge.target.index < 0 || reported[static_cast<std::size_t>(edge.call)])
          continue;
        if (m_wrappers[edge.target.file.value][static_cast<std::size_t>(edge.target.index)].empty()) continue;
        const auto c = static_cast<std::size_t>(edge.call);
        const auto& call = facts.calls[c];
        // A wrapper returning this call is reported at its own callers; a script's main block starts a run.
        if (m_returned[file.value][c] && call.ctx.function >= 0 &&
            !m_wrappers[file.value][static_cast<std::size_t>(call.ctx.function)].empty() &&
            !runs_as_module(FunctionId{file, call.ctx.function}))
          continue;
        if (call.ctx.has(facts::Guard::main_block)) continue;
        reported[c] = 1;
        m_impl.derived[file.value].push_back(
            facts::PatternFact{FactString(k_wrapped_op_call), FactString(chain(edge.target)), call.at, call.ctx});
      }
    }
  }

  Program::Impl& m_impl;
  std::vector<std::vector<std::string>> m_wrappers;  // per file, per function: what a wrapper returns, or ""
  std::vector<std::vector<FunctionId>> m_next;       // per file, per function: the wrapper it returns a call of
  std::vector<std::vector<char>> m_returned;         // per file, per call: inside a value its function returns
  std::deque<FunctionId> m_queue;
};

}  // namespace

void find_op_wrappers(Program::Impl& impl) {
  WrapperPass(impl).run();
}

}  // namespace tr2audit::program
