// detectors/tensor_expr (private): does an expression read a tensor's *value* (not its shape)?
// Shared by the branch, assert, mask and print detectors. Heuristic by design: a method from the
// value-reading set on a non-library receiver, or a torch function that reduces to a value.
#pragma once
#include <tree_sitter/api.h>

#include <functional>
#include <string>

#include "tr2audit/detectors/detector.hpp"

namespace tr2audit::detectors {

/// True when this call reads a tensor value to the host (`x.item()`, `x.any()`, `torch.all(x)`).
bool value_read_at(TSNode call, const NodeScope& scope);
/// The first call in expr that reads a tensor value to the host, as text; "" if none. Calls `skip` says
/// yes to are not searched (their value is a Python number: `float(x.item())`).
std::string find_value_read(TSNode expr, const NodeScope& scope, const std::function<bool(TSNode)>& skip = {});
/// True for a mask-producing expression: comparison, ~x, logical ops, isnan/isinf/eq/... calls.
bool is_mask_expression(TSNode expr, const NodeScope& scope);
/// `a and b` (parentheses aside): its left operand, a null node for any other condition. What its right operand
/// reads or draws happens only where the left holds (`if self.self_condition and random() < 0.5:`).
TSNode and_left_operand(TSNode condition, const NodeScope& scope);
/// True when expr calls a random-number source (random.random, torch.rand, np.random.*).
bool calls_random(TSNode expr, const NodeScope& scope);

}  // namespace tr2audit::detectors
