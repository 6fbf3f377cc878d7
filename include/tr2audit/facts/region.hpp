// facts/region: the part of a program a fact sits in. facts::region_of is the per-file, syntactic
// reading (names, decorators, loops); the program stage (program::Program::region_at) combines it with
// the roles that reachability from entry points gives, which is what rules and reports use.
#pragma once
#include <array>
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
  inference,      ///< reached only from generation, serving or demo entry points
  export_,        ///< reached only from export / conversion entry points
  tooling,        ///< reached only from benchmarks, profiling, visualisation or docs
};

/// Number of Region values; bit sets over Region must hold this many.
inline constexpr std::size_t k_region_count = 10;
static_assert(static_cast<std::size_t>(Region::tooling) + 1 == k_region_count, "k_region_count must match Region");

/// Every Region, in declaration order (the one name table is to_string over this list).
const std::array<Region, k_region_count>& all_regions();

/// True for function names that read like evaluation (eval*, valid*, test*, predict*, evaluate, ...).
bool named_like_evaluation(std::string_view name);

std::string_view to_string(Region region);  ///< "training-step", "data-pipeline", "export", ...
std::optional<Region> parse_region(std::string_view text);

/// Classifies a fact's context within its file (see Region for the heuristics).
Region region_of(const FileFacts& file, const Context& ctx);

/// The region a function has by its own name, decorators and body (nullopt when nothing marks it);
/// the repo-wide reachability pass propagates forward/training-step roles along calls from these.
std::optional<Region> function_role(const FileFacts& file, std::int32_t function);

/// Decorated `@torch.no_grad()` or `@torch.inference_mode()`.
bool no_grad_decorated(const FunctionInfo& fn);

/// True when the context is inside a loop whose body runs backward()/optimizer.step().
bool in_training_loop(const FileFacts& file, const Context& ctx);

/// True at `line` in a periodic block of a training loop (`if i % GENERATE_EVERY == 0:`) that switched the
/// model to eval mode before it (`model.eval()` in that block or an enclosing one, same function and loop):
/// a sample or validation the loop runs between steps, not step code.
bool in_periodic_evaluation(const FileFacts& file, const Context& ctx, std::uint32_t line);

/// "Trainer.train_step" for the innermost function, "" at module level.
std::string function_qualname(const FileFacts& file, const Context& ctx);
std::string class_name(const FileFacts& file, const Context& ctx);

}  // namespace tr2audit::facts
