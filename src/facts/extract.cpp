#include "tr2audit/facts/extract.hpp"

#include <algorithm>
#include <cctype>

#include "facts/syntax.hpp"
#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/tree_arena.hpp"

namespace tr2audit::facts {

/// The size hint of an extractor's string pool: 256 KB first, then 32 KB chunks (StringPool::expect).
constexpr std::size_t k_pool_expected = 512 * 1024;

struct Extractor::State {
  explicit State(ExtractOptions opts)
      : options(opts), kinds(parse::python_language()), detectors(detectors::make_all_detectors()) {
    strings->expect(k_pool_expected);
    dispatch.resize(ts_language_symbol_count(parse::python_language()));
    for (const auto& detector : detectors) {
      for (std::string_view kind : detector->node_kinds()) {
        const TSSymbol id = parse::NodeKinds::resolve(parse::python_language(), kind);
        if (id == 0)
          throw std::runtime_error("detector '" + std::string(detector->id()) + "' asks for unknown node kind '" +
                                   std::string(kind) + "'");
        dispatch[id].push_back(detector.get());
      }
    }
  }

  ExtractOptions options;
  parse::TreeArena arena;  ///< each file's parser and tree: given back whole when the file is done
  parse::NodeKinds kinds;
  std::vector<std::unique_ptr<detectors::Detector>> detectors;
  DispatchTable dispatch;
  ExtractTimes times;
  /// The pool every file this extractor reads interns into: the files of one worker share their names
  /// ("self", "torch.nn.Module", "forward"), so each is stored once per worker rather than once per file.
  std::shared_ptr<StringPool> strings = std::make_shared<StringPool>();
};

Extractor::Extractor(ExtractOptions options) : m_state(std::make_unique<State>(options)) {}
Extractor::~Extractor() {
  m_state->strings->seal();  // the facts keep the entries; the index that found equal texts can go
}

namespace {

// `self.attn_fn = flash_attn_func` in a method, then `self.attn_fn(q, k, v)`: the attribute holds the imported
// library function, so the call is a call of it. Resolved only when every binding of the attribute in the class
// is the same imported name, unconditional and outside any guard (a binding under `if use_flash:` or in an
// ImportError fallback leaves the attribute holding one of several functions, and the call unresolved).
void resolve_held_library_functions(FileFacts& out) {
  for (auto& call : out.calls) {
    if (!call.callee.empty() || !call.receiver_is_self || call.ctx.klass < 0 ||
        !starts_with(call.callee_text, "self.") || !is_identifier(call.callee_text.view().substr(5)))
      continue;
    const Argument* held = nullptr;
    bool single = true;
    for (const auto& assign : out.assigns) {
      if (assign.target_text != call.callee_text || assign.ctx.klass != call.ctx.klass) continue;
      if (assign.value.resolved.empty() || assign.value.kind != LiteralKind::name || assign.ctx.branch >= 0 ||
          assign.ctx.guards != 0 || (held && held->resolved != assign.value.resolved)) {
        single = false;
        break;
      }
      held = &assign.value;
    }
    if (held && single) call.callee = held->resolved;
  }
}

}  // namespace

// A nested function is a local of its enclosing function: only that function's text can call or pass it. One
// whose name that text has just once, at its `def`, never runs (FunctionInfo::unreferenced_nested). A name in a
// string or a comment counts as a mention (`locals()["helper"]`), and so does a same-named nested definition.
void mark_unreferenced_nested(FileFacts& out, std::string_view text) {
  for (auto& fn : out.functions) {
    if (fn.parent < 0 || fn.klass >= 0 || !fn.decorators.empty() || fn.name.empty()) continue;
    const Span& outer = out.functions[static_cast<std::size_t>(fn.parent)].at;
    if (outer.end_byte <= outer.start_byte || outer.end_byte > text.size()) continue;
    const std::string_view body = text.substr(outer.start_byte, outer.end_byte - outer.start_byte);
    const std::string_view name = fn.name;
    const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    int mentions = 0;
    for (std::size_t at = body.find(name); at != std::string_view::npos && mentions < 2;
         at = body.find(name, at + name.size())) {
      const bool starts = at == 0 || !word_char(body[at - 1]);
      const bool ends = at + name.size() == body.size() || !word_char(body[at + name.size()]);
      if (starts && ends) ++mentions;
    }
    fn.unreferenced_nested = mentions == 1;
  }
}

std::string module_name_for(std::string_view rel_path) {
  std::string path(rel_path);
  for (std::string_view suffix : {".py", ".pyi", ".ipynb"}) {
    if (ends_with(path, suffix)) {
      path.resize(path.size() - suffix.size());
      break;
    }
  }
  if (ends_with(path, "/__init__"))
    path.resize(path.size() - std::string_view("/__init__").size());
  else if (path == "__init__")
    path.clear();
  if (starts_with(path, "src/")) path.erase(0, 4);  // src layout: src/pkg/... imports as pkg...
  std::replace(path.begin(), path.end(), '/', '.');
  return path;
}

namespace {

std::uint32_t count_lines(std::string_view text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (text.back() == '\n' ? 0 : 1);
}

}  // namespace

FileFacts Extractor::extract(const discover::SourceFile& file, const discover::LoadedSource& source) {
  State& s = *m_state;
  FileFacts out;
  out.strings.pool = s.strings;
  const std::size_t pool_before = s.strings->used();
  out.path = out.strings(file.rel_path);
  out.kind = file.kind;
  out.is_test = file.is_test;
  out.module_name = out.strings(module_name_for(file.rel_path));
  out.is_package_init = ends_with(file.rel_path, "__init__.py") || ends_with(file.rel_path, "__init__.pyi");
  out.lines = count_lines(source.text);
  out.cell_first_lines = source.cell_first_lines;
  out.cell_numbers = source.cell_numbers;
  out.notebook_places = source.notebook_places;
  out.notebook_escapes = source.notebook_escapes;
  for (const auto& detector : s.detectors) detector->reset();

  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  // First, so that it ends last: the parser, the tree and the walker's cursors are allocated in it.
  const parse::TreeArena::Scope arena(s.arena);
  parse::Parser parser;
  parse::ParseOutcome parsed = parser.parse(source.text, s.options.parse_budget);
  const auto parsed_at = Clock::now();
  s.times = ExtractTimes{parsed_at - started, {}};
  if (!parsed.tree) {
    out.problems.push_back(Problem{ProblemKind::parse_timeout, file.rel_path, 0, 0,
                                   "parsing took longer than the per-file budget of " +
                                       std::to_string(s.options.parse_budget.count()) + " ms; file skipped"});
    out.strings.added_bytes = s.strings->used() - pool_before;
    return out;
  }
  const TSNode root = ts_tree_root_node(parsed.tree.get());
  const SourceView view(source.text, s.kinds, &out.strings);
  Walker walker(view, out, s.dispatch, s.options.max_error_spans);
  walker.collect_module_bindings(root);
  walker.extract(root);
  resolve_held_library_functions(out);
  mark_unreferenced_nested(out, source.text);
  s.times.walk = Clock::now() - parsed_at;
  if (out.has_syntax_errors) {
    const Span& first = out.error_spans.front();
    // A notebook's line is one of its joined code cells: name the cell and its line, as findings do.
    const CellLocation cell = source.map_line(first.line);
    const std::string where = cell.cell ? "cell " + std::to_string(cell.cell) + ":" + std::to_string(cell.line)
                                        : "line " + std::to_string(first.line);
    out.problems.push_back(
        Problem{ProblemKind::syntax_errors, file.rel_path, first.line, first.column,
                "syntax error (first at " + where + "); the file was scanned, facts in the broken region are marked"});
  }
  out.strings.added_bytes = s.strings->used() - pool_before;
  parsed.abandon();
  return out;
}

const ExtractTimes& Extractor::last_times() const {
  return m_state->times;
}

std::string Extractor::dump_tree(std::string_view text) {
  State& s = *m_state;
  parse::Parser parser;
  parse::ParseOutcome parsed = parser.parse(text, s.options.parse_budget);
  if (!parsed.tree) return "(parse cancelled: time budget exceeded)\n";
  std::string out;
  std::size_t depth = 0;
  parse::walk(ts_tree_root_node(parsed.tree.get()), [&](const parse::WalkStep& step) {
    if (step.event == parse::WalkEvent::leave) {
      if (ts_node_is_named(step.node)) --depth;
      return true;
    }
    if (!ts_node_is_named(step.node)) return true;
    const TSPoint start = ts_node_start_point(step.node);
    const TSPoint end = ts_node_end_point(step.node);
    out.append(depth * 2, ' ');
    if (step.field != 0) out += std::string(ts_language_field_name_for_id(parse::python_language(), step.field)) + ": ";
    out += ts_node_is_missing(step.node) ? "MISSING " : "";
    out += ts_node_type(step.node);
    out += " [" + std::to_string(start.row + 1) + ":" + std::to_string(start.column + 1) + " - " +
           std::to_string(end.row + 1) + ":" + std::to_string(end.column + 1) + "]";
    if (ts_node_child_count(step.node) == 0) out += " " + cap_text(SourceView(text, s.kinds).node_text(step.node), 60);
    out += '\n';
    ++depth;
    return true;
  });
  return out;
}

}  // namespace tr2audit::facts
