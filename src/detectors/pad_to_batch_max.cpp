// pad-to-batch-max: a batch padded to its own maximum, so every batch has a new shape and a new
// compiled graph. Two shapes of it:
//  - in a collate/padding function, `max(len(x) for x in batch)`;
//  - anywhere (ImageList.from_tensors style): a name assigned the maximum of sizes or shapes
//    (`torch.stack(sizes).max(0)`, `_max_by_axis([list(img.shape) ...])`) that then reaches a padding
//    or allocation call (`F.pad`, `new_full`, `torch.zeros`) through local names.
#include <cctype>

#include "detectors/tensor_expr.hpp"
#include "detectors/value_flow.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::detectors {
namespace {

constexpr std::string_view k_unbounded = " (shapes per epoch: unbounded, one per distinct batch maximum)";

bool is_padding_function(const NodeScope& scope) {
  const std::int32_t function = scope.context().function;
  if (function < 0) return false;
  const auto& facts = scope.facts_so_far();
  const auto& info = facts.functions[static_cast<std::size_t>(function)];
  const std::string name = to_lower(info.name);
  if (name.find("collate") != std::string::npos || name.find("pad") != std::string::npos ||
      name.find("batch") != std::string::npos)
    return true;
  // `class SFTDataCollator: def __call__(self, batch):`: a collator object's call builds the batch.
  if (info.klass < 0 || static_cast<std::size_t>(info.klass) >= facts.classes.size()) return false;
  const std::string klass = to_lower(facts.classes[static_cast<std::size_t>(info.klass)].name);
  return name == "__call__" && (klass.find("collat") != std::string::npos || klass.find("padder") != std::string::npos);
}

// `max(...)`, `x.max(...)`, `_max_by_axis(...)`; not `log_softmax(...)` or `argmax(...)`.
bool calls_max(std::string_view text) {
  for (auto at = text.find("max("); at != std::string_view::npos; at = text.find("max(", at + 1)) {
    const char before = at == 0 ? ' ' : text[at - 1];
    if (before == '.' || !(std::isalnum(static_cast<unsigned char>(before)) || before == '_')) return true;
  }
  return text.find("max_by_axis(") != std::string_view::npos;
}

bool takes_max_of_sizes(std::string_view text) {
  // `max(local_buffer_sizes)` over a model's parameter blocks sizes a buffer once: the model fixes it, no batch.
  if (text.find("buffer") != std::string_view::npos || text.find("param") != std::string_view::npos) return false;
  const bool max = calls_max(text);
  const bool sizes = text.find(".shape") != std::string_view::npos || text.find(".size(") != std::string_view::npos ||
                     text.find("len(") != std::string_view::npos || text.find("sizes") != std::string_view::npos;
  return max && sizes;
}

/// `seq_lens.max().item()`, `int(max(lengths))`, `max([cur_len] + sampled_lengths)`: the value itself is the
/// maximum (not a call that merely takes one as an argument) of a name that says it holds lengths.
bool is_max_of_lengths(TSNode value, const NodeScope& scope) {
  const auto& k = scope.kinds();
  for (int unwrap = 0; unwrap < 4 && ts_node_symbol(value) == k.call; ++unwrap) {
    const TSNode fn = ts_node_child_by_field_id(value, k.f_function);
    const std::string_view callee = scope.text(fn);
    const TSNode args = ts_node_child_by_field_id(value, k.f_arguments);
    if (callee == "max" || ends_with(callee, ".max")) {
      const std::string_view text = scope.text(value);
      return text.find("_lens") != std::string_view::npos || text.find("lengths") != std::string_view::npos;
    }
    if ((callee == "int" || callee == "float") && !ts_node_is_null(args) && ts_node_named_child_count(args) == 1) {
      value = ts_node_named_child(args, 0);
    } else if (ts_node_symbol(fn) == k.attribute && (ends_with(callee, ".item") || ends_with(callee, ".tolist"))) {
      value = ts_node_child_by_field_id(fn, k.f_object);
    } else {
      return false;
    }
  }
  return false;
}

// `torch.tensor([ids + [pad_id] * (max_len - len(ids)) for ids in batch])`: Python lists padded by
// repetition up to `name`, then made a tensor.
bool builds_tensor(std::string_view callee) {
  const std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
  return last == "tensor" || last == "LongTensor" || last == "as_tensor";
}

bool pads_list_to(std::string_view text, std::string_view name) {
  for (auto at = text.find("] * ("); at != std::string_view::npos; at = text.find("] * (", at + 1)) {
    if (starts_with(text.substr(at + 5), name) && mentions_name(text.substr(at + 5, name.size() + 1), name))
      return true;
  }
  return false;
}

bool pads_or_allocates(std::string_view callee) {
  // `np.empty(n, dtype=f"U{longest}")` sizes a host array (metadata, strings), not a device batch.
  if (starts_with(callee, "np.") || starts_with(callee, "numpy.")) return false;
  // `pad_to_length(t, max_length, pad_value)` (trl), `pad_to(...)`: a padding helper named for what it does.
  const std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
  if (starts_with(last, "pad_to")) return true;
  for (std::string_view sink :
       {"pad", "new_full", "new_zeros", "new_empty", "new_ones", "zeros", "full", "empty", "ones"}) {
    if (ends_with(callee, sink) && (callee.size() == sink.size() || callee[callee.size() - sink.size() - 1] == '.'))
      return true;
  }
  return false;
}

class PadToBatchMax final : public Detector {
 public:
  std::string_view id() const override { return "pad-to-batch-max"; }
  std::vector<std::string_view> node_kinds() const override { return {"call", "assignment"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    if (ts_node_symbol(node) == scope.kinds().call) {
      on_max_call(node, scope);
    } else {
      on_assignment(node, scope);
    }
  }

 private:
  static void on_max_call(TSNode node, NodeScope& scope) {
    const auto& k = scope.kinds();
    const TSNode fn = ts_node_child_by_field_id(node, k.f_function);
    if (ts_node_symbol(fn) != k.identifier || scope.text(fn) != "max" || !scope.resolve(fn).empty()) return;
    const std::string_view args = scope.text(ts_node_child_by_field_id(node, k.f_arguments));
    // `max(len(x) for x in batch)`, `max(map(len, ids))`, `max(lengths)` after `lengths = [len(x) ...]`.
    if (args.find("len(") == std::string_view::npos && args.find("map(len") == std::string_view::npos &&
        args.find("lengths") == std::string_view::npos && args.find("_lens") == std::string_view::npos)
      return;
    if (!is_padding_function(scope)) return;
    // `max(0, start - (len(ids) - limit))` clamps one value at a bound: not the batch's longest.
    const TSNode arg_list = ts_node_child_by_field_id(node, k.f_arguments);
    for (std::uint32_t i = 0; i < ts_node_named_child_count(arg_list); ++i) {
      if (ts_node_symbol(ts_node_named_child(arg_list, i)) == k.integer) return;
    }
    scope.emit("pad-to-batch-max", node,
               "pads to " + std::string(scope.text(node).substr(0, 80)) + std::string(k_unbounded));
  }

  static void on_assignment(TSNode node, NodeScope& scope) {
    const auto& k = scope.kinds();
    const TSNode left = ts_node_child_by_field_id(node, k.f_left);
    const TSNode right = ts_node_child_by_field_id(node, k.f_right);
    if (ts_node_is_null(right) || ts_node_symbol(left) != k.identifier || scope.context().function < 0) return;
    const std::string_view value = scope.text(right);
    if (!takes_max_of_sizes(value) && !is_max_of_lengths(right, scope)) return;
    // The collate path above already reports `max(len(...))` in a padding function.
    if (is_padding_function(scope) && value.find("len(") != std::string_view::npos) return;
    const std::string name(scope.text(left));
    const TSNode body = enclosing_body(node, scope);
    TSNode use = find_use(body, ts_node_end_byte(node), name, scope, builds_tensor);
    if (ts_node_is_null(use) || !pads_list_to(scope.text(use), name))
      use = find_use(body, ts_node_end_byte(node), name, scope, pads_or_allocates);
    if (ts_node_is_null(use)) return;
    const std::string_view use_text = scope.text(use);
    scope.emit("pad-to-batch-max", node,
               "`" + name + "` is the batch maximum of the sizes and pads the batch in `" +
                   std::string(use_text.substr(0, 60)) + (use_text.size() > 60 ? "...`" : "`") +
                   std::string(k_unbounded));
  }
};

}  // namespace

std::unique_ptr<Detector> make_PadToBatchMax() {
  return std::make_unique<PadToBatchMax>();
}

}  // namespace tr2audit::detectors
