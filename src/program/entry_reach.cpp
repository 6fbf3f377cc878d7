// Entry reach: which training entry points reach each function. One breadth-first walk per training
// entry point along the call graph (a constructed repo class runs its forward, or its __call__), so a
// repo with several training entry points can be judged per entry point: a dense fine-tune script and
// an MoE pre-training script share the model file but not its MoE layer.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

class EntryWalk {
 public:
  EntryWalk(Program::Impl& impl, std::uint32_t entry) : m_impl(impl), m_entry(entry) {}

  void run(FunctionId start) {
    visit(start);
    while (!m_queue.empty()) {
      const FunctionId fn = m_queue.front();
      m_queue.pop_front();
      for (const Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
        if (edge.target.index >= 0 || !edge.constructs) visit(edge.target);
        if (edge.constructs && !edge.handed_over) construct(edge.klass);
      }
    }
  }

 private:
  void visit(FunctionId fn) {
    if (fn.index < -1) return;
    auto& entries = m_impl.at(fn).entries;
    if (!entries.empty() && entries.back() == m_entry) return;  // walks run one entry at a time, in order
    entries.push_back(m_entry);
    m_queue.push_back(fn);
  }

  void construct(ClassId klass) {
    if (auto run = m_impl.symbols->run_method(klass)) visit(*run);
  }

  Program::Impl& m_impl;
  std::uint32_t m_entry;
  std::deque<FunctionId> m_queue;
};

/// A set of entry points as one bit each: the module-body fixpoint unions whole sets along every
/// import, so a word-wise union keeps it linear in files x imports for any number of entry points.
class EntrySet {
 public:
  explicit EntrySet(std::size_t entries) : m_words((entries + 63) / 64, 0) {}
  void add(std::uint32_t e) { m_words[e / 64] |= std::uint64_t{1} << (e % 64); }
  /// Adds every entry of other; true when that added any.
  bool merge(const EntrySet& other) {
    bool grew = false;
    for (std::size_t w = 0; w < m_words.size(); ++w) {
      const std::uint64_t before = m_words[w];
      m_words[w] |= other.m_words[w];
      grew = grew || m_words[w] != before;
    }
    return grew;
  }
  std::vector<std::uint32_t> list() const {
    std::vector<std::uint32_t> out;
    for (std::size_t w = 0; w < m_words.size(); ++w) {
      for (std::uint64_t bits = m_words[w]; bits != 0; bits &= bits - 1)
        out.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
    }
    return out;
  }

 private:
  std::vector<std::uint64_t> m_words;
};

/// A module's top level runs when a training run imports it: its body is reached (with the entry points
/// that reach it) when a reached function lives in the file or a reached module imports it.
void reach_module_bodies(Program::Impl& impl) {
  const std::size_t n = impl.files.size();
  std::vector<std::vector<std::uint32_t>> imports(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    for (const auto& import : impl.files[f].imports) {
      if (import.lazy) continue;  // loaded on first use, through the names the symbol table resolves
      const auto target = impl.symbols->module_from(FileId{f}, import.module.dotted());
      if (target && target->value != f) imports[f].push_back(target->value);
    }
  }
  std::vector<EntrySet> entries(n, EntrySet(impl.entries.size()));
  std::vector<bool> reached(n, false);
  for (std::uint32_t f = 0; f < n; ++f) {
    const auto& body = impl.at(FunctionId{FileId{f}, -1});
    reached[f] = body.training_reached;
    for (const std::uint32_t e : body.entries) entries[f].add(e);
    for (std::size_t i = 0; i < impl.files[f].functions.size(); ++i) {
      const auto& st = impl.at(FunctionId{FileId{f}, static_cast<std::int32_t>(i)});
      reached[f] = reached[f] || st.training_reached;
      for (const std::uint32_t e : st.entries) entries[f].add(e);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t f = 0; f < n; ++f) {
      for (const std::uint32_t m : imports[f]) {
        const bool grew = entries[m].merge(entries[f]);
        const bool now = reached[m] || reached[f];
        changed = changed || now != reached[m] || grew;
        reached[m] = now;
      }
    }
  }
  for (std::uint32_t f = 0; f < n; ++f) {
    if (impl.files[f].is_test) continue;
    auto& body = impl.at(FunctionId{FileId{f}, -1});
    body.training_reached = reached[f];
    body.entries = entries[f].list();
  }
}

}  // namespace

void attribute_entries(Program::Impl& impl) {
  impl.entry_lines.assign(impl.entries.size(), 0);
  for (std::uint32_t i = 0; i < impl.entries.size(); ++i) {
    if (!training_roles().test(static_cast<std::size_t>(impl.entries[i].role))) continue;
    EntryWalk(impl, i).run(impl.entries[i].function);
  }
  reach_module_bodies(impl);
  // Lines each entry point reaches: whole files whose top level it reaches, else its outermost functions.
  const auto reached_by = [&](FunctionId fn, std::uint32_t e) {  // entries lists are ascending
    const auto& entries = impl.at(fn).entries;
    return std::binary_search(entries.begin(), entries.end(), e);
  };
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test) continue;
    for (const std::uint32_t e : impl.at(FunctionId{FileId{f}, -1}).entries) impl.entry_lines[e] += file.lines;
    for (std::size_t i = 0; i < file.functions.size(); ++i) {
      const auto& fn = file.functions[i];
      const std::uint32_t span = fn.at.end_line >= fn.at.line ? fn.at.end_line - fn.at.line + 1 : 1;
      for (const std::uint32_t e : impl.at(FunctionId{FileId{f}, static_cast<std::int32_t>(i)}).entries) {
        const bool inside = reached_by(FunctionId{FileId{f}, -1}, e) ||
                            (fn.parent >= 0 && reached_by(FunctionId{FileId{f}, fn.parent}, e));
        if (!inside) impl.entry_lines[e] += span;
      }
    }
  }
}

void find_main_block_self_tests(Program::Impl& impl) {
  impl.main_block_self_test.assign(impl.files.size(), 0);
  std::vector<char> trains(impl.files.size(), 0);
  for (const EntryPoint& e : impl.entries) {
    if (training_roles().test(static_cast<std::size_t>(e.role))) trains[e.function.file.value] = 1;
  }
  std::vector<std::string_view> launched;
  for (const auto& file : impl.files) {
    for (const auto& program : file.launched_programs) launched.push_back(program.view());
  }
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || trains[f] || (impl.imported_by[f].empty() && impl.star_imported_by[f].empty())) continue;
    const std::string_view path = file.path.view();
    const std::string name(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
    const bool run = std::any_of(launched.begin(), launched.end(), [&](std::string_view program) {
      return ends_with(program, "/" + name) || program == name || file.module_name.view() == program;
    });
    impl.main_block_self_test[f] = run ? 0 : 1;
  }
}

}  // namespace tr2audit::program
