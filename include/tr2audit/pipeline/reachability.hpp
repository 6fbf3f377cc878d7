// pipeline/reachability: the repo-wide call graph over the repo's own functions, from every module's
// forward and every training step/loop, so a helper called from forward is judged as forward code.
// Edges come from resolved imports (local modules), bare names, self.method calls, and method names
// that only one repo function carries (name-based where types are unknown). Breadth-first; forward
// wins over training-step; functions with a role of their own keep it.
#pragma once
#include <vector>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::pipeline {

/// Sets FunctionInfo::reached_region / reached_from on every file's functions.
void mark_reachable_functions(std::vector<facts::FileFacts>& files);

}  // namespace tr2audit::pipeline
