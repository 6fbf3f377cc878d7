// boolean-mask-index: `x[mask]` read with a boolean mask (a comparison, `~m`, isnan, a name assigned
// from one in the same function or reshaped from such a name, or a name that says it is a mask:
// `mask`, `*_mask`, `mask_*`). The result's shape depends on the data:
// a dynamic shape. A host value indexed so (a numpy array, a pandas frame) involves no device. Masked writes (`x[mask]
// = 0`, `x[mask] += v`) keep the shape and are not reported.
#include <set>

#include "detectors/tensor_expr.hpp"

namespace tr2audit::detectors {
namespace {

class BooleanMaskIndex final : public Detector {
 public:
  std::string_view id() const override { return "boolean-mask-index"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment", "subscript"}; }
  void reset() override { m_masks.clear(); }

  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const std::int32_t fn = scope.context().function;
    if (ts_node_symbol(node) == k.assignment) {
      const TSNode left = ts_node_child_by_field_id(node, k.f_left);
      const TSNode right = ts_node_child_by_field_id(node, k.f_right);
      if (ts_node_symbol(left) == k.identifier && !ts_node_is_null(right) &&
          (is_mask_expression(right, scope) || reshapes_mask(right, scope, fn)))
        m_masks.insert({fn, std::string(scope.text(left))});
      return;
    }
    // `x[mask] = v` / `x[mask] += v` write in place: the shape stays static (only masked reads change it).
    const TSNode parent = ts_node_parent(node);
    const TSSymbol parent_kind = ts_node_symbol(parent);
    if ((parent_kind == k.assignment || parent_kind == k.augmented_assignment) &&
        ts_node_eq(ts_node_child_by_field_id(parent, k.f_left), node))
      return;
    const TSNode index = ts_node_child_by_field_id(node, k.f_subscript);
    if (ts_node_is_null(index) || !ts_node_is_null(ts_node_next_named_sibling(index))) return;  // x[a, b]
    const bool named = ts_node_symbol(index) == k.identifier &&
                       (m_masks.count({fn, std::string(scope.text(index))}) != 0 || named_like_mask(scope.text(index)));
    const bool is_mask = is_mask_expression(index, scope) || named;
    // (Not a host value's: `df[df["Color"] != -1]` filters a pandas frame, `sizes[sizes > 0]` a numpy array.)
    if (is_mask && !scope.host_value(ts_node_child_by_field_id(node, k.f_value)))
      scope.emit("boolean-mask-index", node, std::string(scope.text(node).substr(0, 120)));
  }

 private:
  // `hidden_states[subset_mask]`: a name that says it is a mask (a parameter, typically) indexes as a
  // boolean mask; integer index tensors are named idx/indices, and a float mask cannot index at all.
  static bool named_like_mask(std::string_view name) {
    return name == "mask" || (name.size() > 5 && name.substr(name.size() - 5) == "_mask") ||
           name.rfind("mask_", 0) == 0;
  }

  // `mask_flat = mask.view(-1)`: a mask reshaped (view, reshape, flatten, ...) is still a mask.
  bool reshapes_mask(TSNode right, const NodeScope& scope, std::int32_t fn) const {
    const auto& k = scope.kinds();
    if (ts_node_symbol(right) != k.call) return false;
    const TSNode callee = ts_node_child_by_field_id(right, k.f_function);
    if (ts_node_symbol(callee) != k.attribute) return false;
    const TSNode receiver = ts_node_child_by_field_id(callee, k.f_object);
    const std::string_view method = scope.text(ts_node_child_by_field_id(callee, k.f_attribute));
    const bool reshape = method == "view" || method == "reshape" || method == "flatten" || method == "contiguous" ||
                         method == "squeeze" || method == "unsqueeze" || method == "expand_as";
    return reshape && ts_node_symbol(receiver) == k.identifier &&
           m_masks.count({fn, std::string(scope.text(receiver))}) != 0;
  }

  std::set<std::pair<std::int32_t, std::string>> m_masks;  // (function, name) assigned a mask
};

}  // namespace

std::unique_ptr<Detector> make_BooleanMaskIndex() {
  return std::make_unique<BooleanMaskIndex>();
}

}  // namespace tr2audit::detectors
