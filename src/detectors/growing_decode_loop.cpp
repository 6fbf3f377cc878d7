// growing-decode-loop: an autoregressive decode written out as a loop: a tensor the loop appends to with
// `torch.cat((x, new), ...)` is fed, itself or through a local name derived from it in the loop
// (`idx_cond = idx[:, -block_size:]`), to a model call in the same loop (`logits, _ = model(xgen)`).
// Every iteration runs the model on a sequence one step longer: a new input shape per token. Emitted at
// the `torch.cat` assignment; the detail names the model call. A function named `generate` is left to
// the generate-in-training rule, which reports its call sites.
#include <algorithm>
#include <array>

#include "detectors/value_flow.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

/// Calls that take a tensor without running a model on it: builtins, containers, tokenizers, logging.
bool not_a_model_call(std::string_view last) {
  static constexpr std::array<std::string_view, 40> kNames = {
      "len",    "print",      "range",        "min",      "max",    "int",       "float", "bool", "list",   "tuple",
      "str",    "repr",       "sorted",       "reversed", "zip",    "enumerate", "any",   "all",  "sum",    "abs",
      "round",  "isinstance", "append",       "extend",   "insert", "put",       "write", "log",  "info",   "debug",
      "decode", "encode",     "batch_decode", "tolist",   "item",   "numpy",     "size",  "dim",  "update", "format"};
  for (std::string_view name : kNames) {
    if (last == name) return true;
  }
  return false;
}

std::string_view last_segment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

/// The innermost for/while loop around node inside its function, or a null node.
TSNode enclosing_loop(TSNode node, const NodeScope& scope) {
  const auto& k = scope.kinds();
  for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
    const TSSymbol kind = ts_node_symbol(n);
    if (kind == k.for_statement || kind == k.while_statement) return n;
    if (kind == k.function_definition || kind == k.class_definition || kind == k.lambda) break;
  }
  return TSNode{};
}

/// True inside a function named `generate` (the walker's context knows the innermost function).
bool in_generate(const NodeScope& scope) {
  const std::int32_t fn = scope.context().function;
  const auto& functions = scope.facts_so_far().functions;
  return fn >= 0 && static_cast<std::size_t>(fn) < functions.size() &&
         functions[static_cast<std::size_t>(fn)].name == "generate";
}

/// The text with its quoted strings emptied (`batch["input_ids"]` → `batch[""]`): a key names no local.
std::string without_strings(std::string_view text) {
  std::string out;
  char quote = 0;
  for (const char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
        out.push_back(c);
      }
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    out.push_back(c);
  }
  return out;
}

/// True when the call's arguments mention one of names (a name itself, a slice of it, an expression).
bool passes_any(TSNode call, const std::vector<std::string>& names, const NodeScope& scope) {
  const std::string_view args = scope.text(ts_node_child_by_field_id(call, scope.kinds().f_arguments));
  for (const std::string& name : names) {
    if (mentions_name(args, name)) return true;
  }
  return false;
}

class GrowingDecodeLoop final : public Detector {
 public:
  std::string_view id() const override { return "growing-decode-loop"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSNode left = ts_node_child_by_field_id(node, k.f_left);
    const TSNode right = ts_node_child_by_field_id(node, k.f_right);
    if (ts_node_is_null(right) || ts_node_symbol(left) != k.identifier || ts_node_symbol(right) != k.call) return;
    const std::string grown(scope.text(left));
    const std::string callee = scope.resolve(ts_node_child_by_field_id(right, k.f_function)).dotted();
    if (callee != "torch.cat" && callee != "torch.concat" && callee != "torch.concatenate") return;
    // The first tensor of the sequence is the name being rebound: the loop appends to it.
    const TSNode args = ts_node_child_by_field_id(right, k.f_arguments);
    const TSNode seq = ts_node_is_null(args) ? TSNode{} : ts_node_named_child(args, 0);
    if (ts_node_is_null(seq) || (ts_node_symbol(seq) != k.tuple && ts_node_symbol(seq) != k.list) ||
        ts_node_named_child_count(seq) < 2)
      return;
    const TSNode first = ts_node_named_child(seq, 0);
    if (ts_node_symbol(first) != k.identifier || scope.text(first) != grown) return;
    const TSNode loop = enclosing_loop(node, scope);
    if (ts_node_is_null(loop) || in_generate(scope)) return;
    const TSNode body = ts_node_child_by_field_id(loop, k.f_body);
    if (ts_node_is_null(body)) return;
    // Names derived from the grown tensor in the loop (document order), then the first model call fed one.
    // (`input_ids = batch_feature["input_ids"]` earlier in the same iteration: the name starts afresh each time,
    // so the concatenation appends one token to each item, and nothing grows across iterations.)
    std::vector<std::string> names{grown};
    TSNode sink{};
    bool fresh = false;
    const std::uint32_t cat_start = ts_node_start_byte(node);
    parse::walk(body, [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || !ts_node_is_null(sink) || fresh) return false;
      const TSNode n = step.node;
      const TSSymbol kind = ts_node_symbol(n);
      if (kind == k.function_definition || kind == k.class_definition || kind == k.lambda) return false;
      if (kind == k.assignment && !ts_node_eq(n, node)) {
        const TSNode l = ts_node_child_by_field_id(n, k.f_left);
        const TSNode r = ts_node_child_by_field_id(n, k.f_right);
        if (!ts_node_is_null(r) && ts_node_start_byte(n) < cat_start && ts_node_symbol(l) == k.identifier &&
            scope.text(l) == grown && !mentions_name(without_strings(scope.text(r)), grown)) {
          fresh = true;
          return false;
        }
        if (!ts_node_is_null(r) && ts_node_symbol(l) == k.identifier && scope.text(l) != grown &&
            ts_node_symbol(r) != k.call && mentions_name(scope.text(r), grown))
          names.emplace_back(scope.text(l));
      } else if (kind == k.call && !ts_node_eq(n, right)) {
        const TSNode fn = ts_node_child_by_field_id(n, k.f_function);
        const std::string_view fn_text = scope.text(fn);
        const bool on_grown =
            ts_node_symbol(fn) == k.attribute && std::any_of(names.begin(), names.end(), [&](const std::string& name) {
              return mentions_name(scope.text(ts_node_child_by_field_id(fn, k.f_object)), name);
            });
        if ((ts_node_symbol(fn) == k.identifier || ts_node_symbol(fn) == k.attribute) && !on_grown &&
            scope.resolve(fn).empty() && !not_a_model_call(last_segment(fn_text)) && passes_any(n, names, scope)) {
          sink = n;
          return false;
        }
      }
      return true;
    });
    if (ts_node_is_null(sink) || fresh) return;
    const TSPoint at = ts_node_start_point(sink);
    std::string detail = "`" + grown + "` grows by one step per iteration and feeds `" +
                         std::string(scope.text(ts_node_child_by_field_id(sink, k.f_function)).substr(0, 60)) +
                         "(...)` at line " + std::to_string(at.row + 1);
    scope.emit("growing-decode-loop", node, std::move(detail));
  }
};

}  // namespace

std::unique_ptr<Detector> make_GrowingDecodeLoop() {
  return std::make_unique<GrowingDecodeLoop>();
}

}  // namespace tr2audit::detectors
