// random-input-size: per-step random input sizes (multi-scale training): a size/scale/resolution
// drawn at random, or a resize/interpolate whose size is drawn at random. Each size is a new graph.
#include "detectors/tensor_expr.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::detectors {
namespace {

bool names_a_size(std::string_view name) {
  const std::string lower = to_lower(name);
  for (std::string_view word : {"size", "scale", "res", "shape", "length", "seq_len", "hw", "dim"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

class RandomInputSize final : public Detector {
 public:
  std::string_view id() const override { return "random-input-size"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment", "keyword_argument"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const bool is_assignment = ts_node_symbol(node) == k.assignment;
    const TSNode target = ts_node_child_by_field_id(node, is_assignment ? k.f_left : k.f_name);
    const TSNode value = ts_node_child_by_field_id(node, is_assignment ? k.f_right : k.f_value);
    if (ts_node_is_null(target) || ts_node_is_null(value) || !names_a_size(scope.text(target))) return;
    if (ts_node_symbol(value) == k.lambda || !calls_random(value, scope)) return;
    scope.emit("random-input-size", node, std::string(scope.text(node).substr(0, 100)));
  }
};

}  // namespace

std::unique_ptr<Detector> make_RandomInputSize() {
  return std::make_unique<RandomInputSize>();
}

}  // namespace tr2audit::detectors
