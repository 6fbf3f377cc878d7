// facts/region: the part of a training program a fact sits in. Per-file heuristics live in
// facts::region_of; the repo-wide reachability stage (call graph from forward and the training
// step) may later promote a fact's region.
#pragma once
#include <optional>
#include <string_view>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

enum class Region {
  forward,        ///< a module's forward (a method named forward) and code it runs
  training_step,  ///< a function/loop that calls backward() or optimizer.step(), or named like a training step
  data_pipeline,  ///< Dataset __getitem__/__iter__, collate functions, tokenisation/preprocessing helpers
  evaluation,     ///< eval/validate/test/predict functions, code under torch.no_grad()
  setup,          ///< module level, __init__, main(), argument parsing, model construction
  test,           ///< test files (tests/, test_*.py, conftest.py)
  other,          ///< any other function
};

std::string_view to_string(Region region);  ///< "training-step", "data-pipeline", ...
std::optional<Region> parse_region(std::string_view text);

/// Classifies a fact's context within its file (see Region for the heuristics).
Region region_of(const FileFacts& file, const Context& ctx);

/// The region a function has by its own name, decorators and body (nullopt when nothing marks it);
/// the repo-wide reachability pass propagates forward/training-step roles along calls from these.
std::optional<Region> function_role(const FileFacts& file, std::int32_t function);

/// True when the context is inside a loop whose body runs backward()/optimizer.step().
bool in_training_loop(const FileFacts& file, const Context& ctx);

/// "Trainer.train_step" for the innermost function, "" at module level.
std::string function_qualname(const FileFacts& file, const Context& ctx);
std::string class_name(const FileFacts& file, const Context& ctx);

}  // namespace tr2audit::facts
