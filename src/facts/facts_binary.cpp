// One description of every field (`fields(io, fact)`) drives both directions, so writing and reading
// cannot drift apart. Unsigned numbers are LEB128 varints, signed ones zigzag varints, strings and
// vectors a varint count followed by their items.
#include "tr2audit/facts/facts_binary.hpp"

#include <limits>

namespace tr2audit::facts {
namespace {

// Tripwire: a field added to a fact must be added to fields() below (and k_facts_binary_version bumped).
// The round-trip test (tests/unit/facts/test_facts_binary.cpp) catches the rest on any platform.
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(Span) == 20 && sizeof(Context) == 20, "update facts_binary.cpp fields()");
static_assert(sizeof(ImportFact) == 96 && sizeof(Argument) == 64 && sizeof(CallFact) == 96,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(DecoratorFact) == 72 && sizeof(AssignFact) == 128 && sizeof(DeviceLiteralFact) == 72,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(PatternFact) == 56 && sizeof(FunctionInfo) == 80 && sizeof(ClassInfo) == 56,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(LoopInfo) == 56 && sizeof(ConditionTerm) == 24 && sizeof(BranchInfo) == 40,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(DependencyFact) == 48 && sizeof(DirectiveComment) == 24 && sizeof(Problem) == 80,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(BoundCall) == 32 && sizeof(ReferenceFact) == 56 && sizeof(SettingFact) == 48 &&
                  sizeof(ValueFact) == 64 && sizeof(DispatchEntry) == 48,
              "a fact changed: update facts_binary.cpp fields() and bump k_facts_binary_version");
static_assert(sizeof(FileFacts) == 768, "FileFacts changed: update facts_binary.cpp fields() and bump the version");
#endif

class Writer {
 public:
  std::string bytes;

  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      bytes.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    bytes.push_back(static_cast<char>(v));
  }
  void operator()(std::uint32_t& v) { varint(v); }
  void operator()(std::uint16_t& v) { varint(v); }
  void operator()(std::int32_t& v) {
    varint((static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31));
  }
  void operator()(bool& v) { bytes.push_back(v ? 1 : 0); }
  void operator()(char& v) { bytes.push_back(v); }
  void operator()(std::int8_t& v) { bytes.push_back(static_cast<char>(v)); }
  void operator()(std::string& v) {
    varint(v.size());
    bytes += v;
  }
  void operator()(FactString& v) {
    varint(v.size());
    bytes += v.view();
  }
  void operator()(QualifiedName& v) {
    varint(v.dotted().size());
    bytes += v.dotted().view();
  }
  template <class E>
  void enumeration(E& v, E /*last*/) {
    varint(static_cast<std::uint64_t>(v));
  }
  template <class T>
  void operator()(std::vector<T>& items) {
    varint(items.size());
    for (T& item : items) (*this)(item);
  }
  template <class T>
  void operator()(CompactArray<T>& items) {
    varint(items.size());
    for (T& item : items) (*this)(item);
  }
  template <class T>
  void operator()(Box<T>& box) {
    bool has = static_cast<bool>(box);
    (*this)(has);
    if (has) (*this)(box.emplace());
  }
  template <class T>
  void operator()(T& fact);  // the structs below
};

class Reader {
 public:
  /// Strings are interned into pool (the file's FactStrings).
  Reader(std::string_view bytes, StringPool& pool) : m_bytes(bytes), m_pool(pool) {}
  bool ok = true;
  bool at_end() const { return m_at == m_bytes.size(); }

  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (m_at >= m_bytes.size()) return fail();
      const auto byte = static_cast<unsigned char>(m_bytes[m_at++]);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    return fail();
  }
  void operator()(std::uint32_t& v) { v = narrow<std::uint32_t>(varint()); }
  void operator()(std::uint16_t& v) { v = narrow<std::uint16_t>(varint()); }
  void operator()(std::int32_t& v) {
    const std::uint32_t z = narrow<std::uint32_t>(varint());
    v = static_cast<std::int32_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  void operator()(bool& v) {
    const std::uint64_t b = m_at < m_bytes.size() ? static_cast<unsigned char>(m_bytes[m_at++]) : fail();
    if (b > 1) fail();
    v = b == 1;
  }
  void operator()(char& v) { v = m_at < m_bytes.size() ? m_bytes[m_at++] : static_cast<char>(fail()); }
  void operator()(std::int8_t& v) {
    v = m_at < m_bytes.size() ? static_cast<std::int8_t>(m_bytes[m_at++]) : static_cast<std::int8_t>(fail());
  }
  void operator()(std::string& v) {
    const std::uint64_t n = varint();
    if (n > m_bytes.size() - m_at) {
      fail();
      return;
    }
    v.assign(m_bytes.substr(m_at, n));
    m_at += n;
  }
  void operator()(FactString& v) {
    const std::uint64_t n = varint();
    if (n > m_bytes.size() - m_at) {
      fail();
      return;
    }
    v = m_pool.intern(m_bytes.substr(m_at, n));
    m_at += n;
  }
  void operator()(QualifiedName& v) {
    FactString dotted;
    (*this)(dotted);
    v = QualifiedName::from_text(std::move(dotted));
  }
  template <class E>
  void enumeration(E& v, E last) {
    const std::uint64_t n = varint();
    if (n > static_cast<std::uint64_t>(last)) fail();
    v = ok ? static_cast<E>(n) : E{};
  }
  template <class T>
  void operator()(std::vector<T>& items) {
    const std::uint64_t n = varint();
    if (n > m_bytes.size() - m_at) {  // every item takes at least one byte
      fail();
      return;
    }
    items.resize(n);
    for (T& item : items) {
      if (!ok) return;
      (*this)(item);
    }
  }
  template <class T>
  void operator()(CompactArray<T>& items) {
    std::vector<T> read;
    (*this)(read);
    items = std::move(read);
  }
  template <class T>
  void operator()(Box<T>& box) {
    bool has = false;
    (*this)(has);
    if (has && ok)
      (*this)(box.emplace());
    else
      box.reset();
  }
  template <class T>
  void operator()(T& fact);

 private:
  std::uint64_t fail() {
    ok = false;
    m_at = m_bytes.size();
    return 0;
  }
  template <class N>
  N narrow(std::uint64_t v) {
    if (v > std::numeric_limits<N>::max()) fail();
    return static_cast<N>(v);
  }
  std::string_view m_bytes;
  StringPool& m_pool;
  std::size_t m_at = 0;
};

template <class IO>
void fields(IO& io, Span& s) {
  io(s.line), io(s.column), io(s.end_line), io(s.end_column), io(s.start_byte), io(s.end_byte);
}
template <class IO>
void fields(IO& io, FilePlace& p) {
  io(p.line), io(p.column);
}
template <class IO>
void fields(IO& io, JsonEscape& e) {
  io(e.line), io(e.column), io(e.extra);
}
template <class IO>
void fields(IO& io, Context& c) {
  io(c.function), io(c.klass), io(c.loop), io(c.branch), io(c.guards), io(c.in_error_region), io(c.in_assert);
}
template <class IO>
void fields(IO& io, ImportFact& f) {
  io(f.target), io(f.module), io(f.bound_name), io(f.relative_level), io(f.star), io(f.dynamic), io(f.lazy), io(f.at);
  io(f.statement), io(f.ctx);
}
template <class IO>
void fields(IO& io, Argument& a) {
  io(a.keyword), io.enumeration(a.kind, LiteralKind::other), io(a.value), io(a.resolved), io(a.is_splat);
  io(a.conditional), io(a.at), io(a.line), io(a.scalar);
}
template <class IO>
void fields(IO& io, ConditionalValue& c) {
  io(c.then_value), io(c.else_value), io(c.condition), io(c.guards);
}
template <class IO>
void fields(IO& io, CallFact& f) {
  io(f.callee), io(f.callee_text), io(f.method), io(f.receiver_text), io(f.receiver_callee);
  io(f.receiver_is_self), io(f.host_value), io(f.item_argument), io(f.args), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, DecoratorFact& f) {
  io(f.decorator), io(f.text), io(f.args), io(f.decorated), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, AssignFact& f) {
  io(f.target), io(f.target_text), io(f.value), io(f.target_is_import), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, BoundCall& f) {
  io(f.target_text), io(f.call_start_byte), io(f.ctx);
}
template <class IO>
void fields(IO& io, ValueFact& f) {
  io.enumeration(f.sink, ValueSink::dict_entry), io(f.key), io(f.name), io(f.value), io(f.ctx);
}
template <class IO>
void fields(IO& io, DispatchEntry& f) {
  io(f.table), io(f.key), io(f.name), io(f.value);
}
template <class IO>
void fields(IO& io, ReferenceFact& f) {
  io(f.name), io(f.text), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, DeviceLiteralFact& f) {
  io(f.value), io.enumeration(f.use, DeviceUse::parameter_default), io(f.callee), io(f.keyword), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, PatternFact& f) {
  io(f.kind), io(f.detail), io(f.at), io(f.ctx);
}
template <class IO>
void fields(IO& io, FunctionInfo& f) {
  io(f.name), io(f.qualname), io(f.klass), io(f.parent), io(f.decorators), io(f.params), io(f.is_async),
      io(f.conditional), io(f.unreferenced_nested), io(f.is_generator), io(f.none_passthrough), io(f.at);
  io(f.calls_backward), io(f.calls_optimizer_step), io(f.param_defaults);
}
template <class IO>
void fields(IO& io, ClassInfo& c) {
  io(c.name), io(c.qualname), io(c.bases), io(c.base_texts), io(c.parent_function), io(c.at);
}
template <class IO>
void fields(IO& io, LoopInfo& l) {
  io.enumeration(l.kind, LoopKind::comprehension), io(l.parent), io(l.function), io(l.iter_text), io(l.target_text);
  io(l.calls_backward), io(l.at);
}
template <class IO>
void fields(IO& io, ConditionTerm& t) {
  io(t.name), io(t.equals), io(t.negated), io(t.greater), io(t.member), io(t.folded), io(t.registry);
  io(t.contains), io(t.split_separator), io(t.split_part);
}
template <class IO>
void fields(IO& io, BranchInfo& b) {
  io(b.parent), io(b.terms), io(b.else_side), io(b.any_of), io(b.at);
}
template <class IO>
void fields(IO& io, DependencyFact& d) {
  io(d.name), io(d.spec), io(d.section), io(d.at);
}
template <class IO>
void fields(IO& io, SettingFact& s) {
  io(s.key), io(s.value), io(s.at), io(s.program);
}
template <class IO>
void fields(IO& io, DirectiveComment& d) {
  io(d.line), io(d.column), io(d.covers), io(d.own_line), io(d.text);
}
template <class IO>
void fields(IO& io, Problem& p) {
  io.enumeration(p.kind, ProblemKind::internal), io(p.path), io(p.line), io(p.column), io(p.message);
}
template <class IO>
void fields(IO& io, FileFacts& f) {
  io(f.path), io.enumeration(f.kind, discover::FileKind::config), io(f.is_test), io(f.module_name), io(f.cpu_twin);
  io(f.is_package_init), io(f.lines), io(f.has_syntax_errors), io(f.error_spans), io(f.cell_first_lines);
  io(f.cell_numbers), io(f.notebook_places), io(f.notebook_escapes), io(f.imports), io(f.calls), io(f.decorators),
      io(f.assigns), io(f.bound_calls), io(f.read_bindings);
  io(f.values), io(f.references), io(f.devices), io(f.patterns);
  io(f.dependencies), io(f.settings), io(f.launched_programs), io(f.name_strings), io(f.source_file_strings),
      io(f.used_names), io(f.dispatch_entries), io(f.computed_lookups), io(f.functions), io(f.classes), io(f.loops),
      io(f.branches), io(f.directives), io(f.problems);
}

template <class T>
void Writer::operator()(T& fact) {
  fields(*this, fact);
}
template <class T>
void Reader::operator()(T& fact) {
  fields(*this, fact);
}

/// Every index a fact holds points into its table (or is -1), so consumers may index without checks.
bool indices_valid(const FileFacts& f) {
  const auto in = [](std::int32_t i, std::size_t size) { return i >= -1 && i < static_cast<std::int64_t>(size); };
  const auto ctx_ok = [&](const Context& c) {
    return in(c.function, f.functions.size()) && in(c.klass, f.classes.size()) && in(c.loop, f.loops.size()) &&
           in(c.branch, f.branches.size());
  };
  const auto all_ctx = [&](const auto& facts) {
    for (const auto& fact : facts) {
      if (!ctx_ok(fact.ctx)) return false;
    }
    return true;
  };
  if (!all_ctx(f.imports) || !all_ctx(f.calls) || !all_ctx(f.decorators) || !all_ctx(f.assigns) ||
      !all_ctx(f.bound_calls) || !all_ctx(f.read_bindings) || !all_ctx(f.values) || !all_ctx(f.references) ||
      !all_ctx(f.devices) || !all_ctx(f.patterns))
    return false;
  for (const auto& fn : f.functions) {
    if (!in(fn.klass, f.classes.size()) || !in(fn.parent, f.functions.size())) return false;
  }
  for (const auto& c : f.classes) {
    if (!in(c.parent_function, f.functions.size())) return false;
  }
  for (const auto& l : f.loops) {
    if (!in(l.parent, f.loops.size()) || !in(l.function, f.functions.size())) return false;
  }
  for (const auto& b : f.branches) {
    if (!in(b.parent, f.branches.size())) return false;
  }
  return f.cell_first_lines.size() == f.cell_numbers.size();
}

}  // namespace

std::string to_bytes(const FileFacts& file) {
  Writer writer;
  writer(const_cast<FileFacts&>(file));  // the Writer only reads; one fields() serves both directions
  return std::move(writer.bytes);
}

std::optional<FileFacts> from_bytes(std::string_view bytes) {
  FileFacts facts;
  facts.strings.pool->expect(bytes.size() / 2);
  Reader reader(bytes, *facts.strings.pool);
  reader(facts);
  if (!reader.ok || !reader.at_end() || !indices_valid(facts)) return std::nullopt;
  facts.strings.pool->seal();
  facts.strings.added_bytes = facts.strings.pool->used();
  return facts;
}

}  // namespace tr2audit::facts
