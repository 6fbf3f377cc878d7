// repeat-interleave-tensor: repeat_interleave whose repeats come from a tensor, so the output
// length depends on data (an integer literal or a shape is static and stays quiet, and so does a call
// that passes `output_size=`: the length is given, so nothing is read back from the device; so do a parameter
// annotated `int` and an attribute the class binds only to integer arithmetic, `self.repeats = factor *
// out_channels // in_channels`).
#include "detectors/tensor_expr.hpp"

namespace tr2audit::detectors {
namespace {

// `def repeat_kv(keys, values, repeats: int, dim: int)`: a parameter annotated `int` is a Python int.
bool int_parameter(TSNode repeats, const NodeScope& scope) {
  const auto& k = scope.kinds();
  const std::int32_t fn = scope.context().function;
  if (ts_node_symbol(repeats) != k.identifier || fn < 0) return false;
  const std::string_view name = scope.text(repeats);
  for (const FactString& param : scope.facts_so_far().functions[static_cast<std::size_t>(fn)].params) {
    const std::string_view text = param;  // "repeats: int", "repeats: int = 1"
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || text.substr(0, colon) != name) continue;
    std::string_view type = text.substr(
        colon + 1, text.find('=') == std::string_view::npos ? std::string_view::npos : text.find('=') - colon - 1);
    while (!type.empty() && type.front() == ' ') type.remove_prefix(1);
    while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
    return type == "int";
  }
  return false;
}

// `self.repeats` where every binding of it in the class so far is integer arithmetic of names and literals
// (`self.repeats = factor * out_channels // in_channels` in `__init__`): a Python int, computed once.
bool int_attribute(TSNode repeats, const NodeScope& scope) {
  const auto& k = scope.kinds();
  const std::int32_t klass = scope.context().klass;
  if (ts_node_symbol(repeats) != k.attribute || klass < 0) return false;
  const std::string_view name = scope.text(repeats);
  if (name.substr(0, 5) != "self." || name.find('.', 5) != std::string_view::npos) return false;
  bool any = false;
  for (const facts::AssignFact& assign : scope.facts_so_far().assigns) {
    if (assign.ctx.klass != klass || assign.target_text != name) continue;
    const std::string_view value = assign.value.value;
    const bool arithmetic = assign.value.kind == facts::LiteralKind::other &&
                            value.find_first_of("*+-%") != std::string_view::npos &&
                            value.find_first_not_of(
                                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ "
                                "*+-%/()") == std::string_view::npos &&
                            (value.find('/') == std::string_view::npos || value.find("//") != std::string_view::npos);
    if (assign.value.kind != facts::LiteralKind::integer && !arithmetic) return false;
    any = true;
  }
  return any;
}

class RepeatInterleaveTensor final : public Detector {
 public:
  std::string_view id() const override { return "repeat-interleave-tensor"; }
  std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSNode fn = ts_node_child_by_field_id(node, k.f_function);
    const QualifiedName callee = scope.resolve(fn);
    std::uint32_t repeats_index = 0;
    if (callee.dotted() == "torch.repeat_interleave")
      repeats_index = 1;
    else if (!(callee.empty() && ts_node_symbol(fn) == k.attribute &&
               scope.text(ts_node_child_by_field_id(fn, k.f_attribute)) == "repeat_interleave"))
      return;
    const TSNode args = ts_node_child_by_field_id(node, k.f_arguments);
    TSNode repeats{};
    std::uint32_t positional = 0;
    bool sized = false;  // `output_size=`: the caller states the length, so no host read and a known shape
    for (std::uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
      const TSNode arg = ts_node_named_child(args, i);
      if (ts_node_symbol(arg) == k.keyword_argument) {
        const std::string_view name = scope.text(ts_node_child_by_field_id(arg, k.f_name));
        if (name == "repeats") repeats = ts_node_child_by_field_id(arg, k.f_value);
        sized |= name == "output_size";
      } else if (positional++ == repeats_index) {
        repeats = arg;
      }
    }
    if (ts_node_is_null(repeats) || sized) return;
    // Dynamic: a computed tensor (a call or subscript), or a name that reads like per-item counts.
    const TSSymbol kind = ts_node_symbol(repeats);
    const std::string_view text = scope.text(repeats);
    const bool names_counts =
        text.find("count") != std::string_view::npos || text.find("len") != std::string_view::npos ||
        text.find("sizes") != std::string_view::npos || text.find("repeats") != std::string_view::npos ||
        text.find("num_tokens") != std::string_view::npos;
    // `block_size[0]`: an entry of a size setting (a singular `*_size` name, an integer index) is a Python int.
    bool size_entry = false;
    if (kind == k.subscript) {
      const std::string_view base = scope.text(ts_node_child_by_field_id(repeats, k.f_value));
      const TSNode at = ts_node_child_by_field_id(repeats, k.f_subscript);
      const std::string_view last = base.substr(base.rfind('.') == std::string_view::npos ? 0 : base.rfind('.') + 1);
      size_entry = ts_node_symbol(at) == k.integer &&
                   (last == "size" || (last.size() > 5 && last.substr(last.size() - 5) == "_size"));
    }
    const bool computed = (kind == k.call || kind == k.subscript) && !size_entry &&
                          text.find("shape") == std::string_view::npos &&
                          text.find("size(") == std::string_view::npos && text.find("int(") != 0;
    const bool static_repeats = !(computed || ((kind == k.identifier || kind == k.attribute) && names_counts));
    if (static_repeats || int_parameter(repeats, scope) || int_attribute(repeats, scope)) return;
    scope.emit("repeat-interleave-tensor", node, "repeats = " + std::string(text.substr(0, 80)));
  }
};

}  // namespace

std::unique_ptr<Detector> make_RepeatInterleaveTensor() {
  return std::make_unique<RepeatInterleaveTensor>();
}

}  // namespace tr2audit::detectors
