// pad-to-batch-max: a collate/padding function that pads each batch to its own longest sequence
// (`max(len(x) for x in batch)`), so every batch has a new shape and a new compiled graph.
#include "detectors/tensor_expr.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::detectors {
namespace {

class PadToBatchMax final : public Detector {
 public:
  std::string_view id() const override { return "pad-to-batch-max"; }
  std::vector<std::string_view> node_kinds() const override { return {"call"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const TSNode fn = ts_node_child_by_field_id(node, k.f_function);
    if (ts_node_symbol(fn) != k.identifier || scope.text(fn) != "max" || !scope.resolve(fn).empty()) return;
    const std::string_view args = scope.text(ts_node_child_by_field_id(node, k.f_arguments));
    if (args.find("len(") == std::string_view::npos && args.find("map(len") == std::string_view::npos) return;
    const auto& facts = scope.facts_so_far();
    const std::int32_t function = scope.context().function;
    if (function < 0) return;
    const std::string name = to_lower(facts.functions[function].name);
    const bool padding_function = name.find("collate") != std::string::npos || name.find("pad") != std::string::npos ||
                                  name.find("batch") != std::string::npos;
    if (!padding_function) return;
    scope.emit("pad-to-batch-max", node, "pads to " + std::string(scope.text(node).substr(0, 80)));
  }
};

}  // namespace

std::unique_ptr<Detector> make_PadToBatchMax() {
  return std::make_unique<PadToBatchMax>();
}

}  // namespace tr2audit::detectors
