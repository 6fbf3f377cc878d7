// detectors/value_flow (private): follows a local name forward through its function: names assigned
// from an expression that mentions it join it, and the first call of a given kind whose arguments
// mention one of them is where the value is used ("max_size" -> batch_shape -> torch.zeros(batch_shape)).
// Textual and local by design: one function body, document order, no calls followed.
#pragma once
#include <tree_sitter/api.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/detectors/detector.hpp"

namespace tr2audit::detectors {

/// The body of the innermost function around node, or the module when there is none.
TSNode enclosing_body(TSNode node, const NodeScope& scope);

/// The first call after `after_byte` in body whose callee text satisfies is_sink and whose arguments
/// mention `name` or a name derived from it; a null node when there is none.
TSNode find_use(TSNode body, std::uint32_t after_byte, const std::string& name, const NodeScope& scope,
                const std::function<bool(std::string_view)>& is_sink,
                const std::function<bool(TSNode call, const std::vector<std::string>& names)>& accepts = {});

}  // namespace tr2audit::detectors
