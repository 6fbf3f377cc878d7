#include "tr2audit/facts/region.hpp"

#include <algorithm>
#include <array>

#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

constexpr std::array k_regions{Region::forward, Region::training_step, Region::data_pipeline, Region::evaluation,
                               Region::setup,   Region::test,          Region::other,         Region::inference,
                               Region::export_, Region::tooling};
static_assert(k_regions.size() == k_region_count);

bool name_has(std::string_view name, std::initializer_list<std::string_view> needles) {
  for (std::string_view needle : needles) {
    if (name.find(needle) != std::string_view::npos) return true;
  }
  return false;
}

bool is_training_name(std::string_view name) {
  return name_has(name, {"train_step", "training_step", "train_one_epoch", "train_epoch", "train_batch", "fit_batch",
                         "optimizer_step", "training_loop", "train_loop"}) ||
         name == "train" || name == "fit" || name == "step";
}

bool is_eval_name(std::string_view name) {
  // Hugging Face TrainerCallback hooks that run at evaluation, logging and checkpoint time (`on_step_end`
  // runs every step and is not one of them).
  if (starts_with(name, "on_evaluate") || starts_with(name, "on_log") || starts_with(name, "on_save") ||
      starts_with(name, "on_predict"))
    return true;
  if (starts_with(name, "eval") || starts_with(name, "valid") || starts_with(name, "predict") ||
      starts_with(name, "test") ||
      name_has(name, {"evaluate", "validation_step", "test_step", "inference", "generate", "compute_metrics"}))
    return true;
  // A word of a snake_case name: `run_validation`, `llm_eval`, `do_eval`, `run_evaluation` (not `retrieval`,
  // `interval`, or a `val_loader`, whose word is only an abbreviation).
  for (std::size_t start = 0; start <= name.size();) {
    const std::size_t end = std::min(name.find('_', start), name.size());
    const std::string_view word = name.substr(start, end - start);
    if (word == "eval" || word == "evaluation" || word == "validation" || word == "validate") return true;
    start = end + 1;
  }
  return false;
}

bool is_data_name(std::string_view name, std::string_view class_bases) {
  if (name == "__getitem__" || name == "__iter__" || name == "__len__")
    return name_has(class_bases, {"Dataset", "IterableDataset", "Sampler"}) || !class_bases.empty();
  // `tokenize_fn` tokenises data; `load_tokenizer` and `setup_model_and_tokenizer` build a tool (setup).
  for (auto at = name.find("tokenize"); at != std::string_view::npos; at = name.find("tokenize", at + 1)) {
    if (at + 8 == name.size() || name[at + 8] != 'r') return true;
  }
  return name_has(name, {"collate", "preprocess", "encode_batch", "load_dataset", "get_batch", "next_batch",
                         "data_generator", "data_collator", "transform", "augment", "pack_sequences", "group_texts"});
}

// A data loader's or dataset's own class (`DistributedDataLoader`, `TokenDataset`, `PackedCollator`): what
// its methods other than the constructor do, they do to the data.
bool data_class_method(const FileFacts& file, const FunctionInfo& fn) {
  if (fn.klass < 0 || fn.name == "__init__") return false;
  const std::string klass = file.classes[static_cast<std::size_t>(fn.klass)].name.str();
  if (ends_with(klass, "DataLoader") || ends_with(klass, "Dataset") || ends_with(klass, "Collator")) return true;
  // `PrefetchLoader`, `MultiEpochsLoader`: a loader that iterates batches (not a `CheckpointLoader`).
  return ends_with(klass, "Loader") &&
         std::any_of(file.functions.begin(), file.functions.end(), [&](const FunctionInfo& method) {
           return method.klass == fn.klass && (method.name == "__iter__" || method.name == "__next__");
         });
}

std::string class_bases_text(const FileFacts& file, std::int32_t klass) {
  if (klass < 0) return {};
  std::string out;
  for (const auto& base : file.classes[klass].bases) out += base.dotted() + " ";
  return out;
}

// Classifies one function by its own name and flags (not its parents').
std::optional<Region> own_region(const FileFacts& file, const FunctionInfo& fn) {
  const std::string lower = to_lower(fn.name);
  // A module whose `forward` itself runs backward (`DecoderTrainer.forward`: the model's loss, then
  // `accelerator.backward(loss)`; the step is the trainer's `update()`) wraps a training step; it is not a
  // model's forward. (One that also steps an optimizer of its own, a VQ codebook's in-place update, stays a forward.)
  if (fn.name == "forward" && fn.klass >= 0)
    return fn.calls_backward && !fn.calls_optimizer_step ? Region::training_step : Region::forward;
  if (fn.calls_backward || fn.calls_optimizer_step || is_training_name(lower)) return Region::training_step;
  if (is_data_name(lower, class_bases_text(file, fn.klass)) || data_class_method(file, fn))
    return Region::data_pipeline;
  if (is_eval_name(lower)) return Region::evaluation;
  // `@torch.no_grad` on a sampling or scoring function is evaluation; on anything else (weight init,
  // an EMA update, LoftQ's re-initialisation, target building) it says nothing of where it runs.
  if (no_grad_decorated(fn) &&
      name_has(lower, {"sample", "decode", "score", "infer", "metric", "loss", "perplexity", "accuracy"}))
    return Region::evaluation;
  if (fn.name == "__init__" || fn.name == "main" || starts_with(lower, "parse_arg") || starts_with(lower, "setup") ||
      starts_with(lower, "build_") || starts_with(lower, "create_") || starts_with(lower, "get_args"))
    return Region::setup;
  return std::nullopt;
}

// A function whose own loop runs backward() drives training: the code around that loop is setup.
bool drives_training_loop(const FileFacts& file, std::int32_t function) {
  for (const auto& loop : file.loops) {
    if (loop.function == function && loop.calls_backward) return true;
  }
  return false;
}

}  // namespace

bool no_grad_decorated(const FunctionInfo& fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(), [](const QualifiedName& decorator) {
    return decorator.dotted() == "torch.no_grad" || decorator.dotted() == "torch.inference_mode";
  });
}

std::string_view to_string(Region region) {
  switch (region) {
    case Region::forward:
      return "forward";
    case Region::training_step:
      return "training-step";
    case Region::data_pipeline:
      return "data-pipeline";
    case Region::evaluation:
      return "evaluation";
    case Region::setup:
      return "setup";
    case Region::test:
      return "test";
    case Region::other:
      return "other";
    case Region::inference:
      return "inference";
    case Region::export_:
      return "export";
    case Region::tooling:
      return "tooling";
  }
  return "other";
}

std::optional<Region> parse_region(std::string_view text) {
  for (Region region : k_regions) {
    if (to_string(region) == text) return region;
  }
  return std::nullopt;
}

bool in_training_loop(const FileFacts& file, const Context& ctx) {
  for (std::int32_t loop = ctx.loop; loop >= 0; loop = file.loops[loop].parent) {
    if (file.loops[loop].calls_backward) return true;
  }
  return false;
}

bool in_periodic_evaluation(const FileFacts& file, const Context& ctx, std::uint32_t line) {
  if (!ctx.has(Guard::periodic) || ctx.loop < 0 || !in_training_loop(file, ctx)) return false;
  return std::any_of(file.calls.begin(), file.calls.end(), [&](const CallFact& call) {
    if (call.method != "eval" || !call.args.empty() || call.at.line > line || call.ctx.function != ctx.function ||
        call.ctx.loop != ctx.loop || !call.ctx.has(Guard::periodic) || call.ctx.branch < 0)
      return false;
    for (std::int32_t branch = ctx.branch; branch >= 0; branch = file.branches[branch].parent) {
      if (branch == call.ctx.branch) return true;
    }
    return false;
  });
}

Region region_of(const FileFacts& file, const Context& ctx) {
  if (file.is_test) return Region::test;
  if (in_training_loop(file, ctx)) return Region::training_step;
  if (ctx.function >= 0 && drives_training_loop(file, ctx.function)) return Region::setup;
  // The innermost function with a recognisable role decides; nested helpers inherit it. Gradients off
  // because an enclosing function not named for evaluation is decorated so (`@torch.no_grad def
  // init_weights`) are a property of that computation, not a sign of evaluation; a module's
  // `@torch.no_grad() def forward` is a post-processor, and that is evaluation.
  // A `with torch.no_grad():` block in a module's forward (routing indices, a kernel's bookkeeping) runs
  // in every training forward: only a decorated function makes the no-grad code evaluation there.
  std::optional<Region> innermost;
  bool no_grad_helper = false;
  bool decorated = false;
  for (std::int32_t fn = ctx.function; fn >= 0; fn = file.functions[fn].parent) {
    const FunctionInfo& info = file.functions[fn];
    const std::optional<Region> region = own_region(file, info);
    if (!innermost) innermost = region;
    if (!ctx.has(Guard::no_grad)) {
      if (innermost) break;  // nothing further up can change the answer
      continue;
    }
    decorated |= no_grad_decorated(info);
    no_grad_helper |=
        no_grad_decorated(info) && info.name != "forward" && info.name != "__call__" && region != Region::evaluation;
  }
  if (ctx.has(Guard::no_grad) && !decorated) {
    if (innermost == Region::forward) return Region::forward;
    // (`forward_once` of a module; not a serving pipeline's `_forward`.)
    const FunctionInfo* method = ctx.function >= 0 ? &file.functions[ctx.function] : nullptr;
    if (!innermost && method != nullptr && method->klass >= 0 &&
        method->name.view().find("forward") != std::string_view::npos &&
        class_bases_text(file, method->klass).find("Module") != std::string::npos)
      return Region::forward;
  }
  const bool evaluates = ctx.has(Guard::no_grad) && !no_grad_helper;
  if (innermost) return *innermost != Region::training_step && evaluates ? Region::evaluation : *innermost;
  if (evaluates) return Region::evaluation;
  if (ctx.function < 0) return Region::setup;
  return Region::other;
}

const std::array<Region, k_region_count>& all_regions() {
  return k_regions;
}

bool named_like_evaluation(std::string_view name) {
  return is_eval_name(to_lower(name));
}

std::optional<Region> function_role(const FileFacts& file, std::int32_t function) {
  if (function < 0 || function >= static_cast<std::int32_t>(file.functions.size())) return std::nullopt;
  return own_region(file, file.functions[function]);
}

std::string function_qualname(const FileFacts& file, const Context& ctx) {
  return ctx.function >= 0 ? file.functions[ctx.function].qualname : std::string{};
}

std::string class_name(const FileFacts& file, const Context& ctx) {
  return ctx.klass >= 0 ? file.classes[ctx.klass].qualname : std::string{};
}

}  // namespace tr2audit::facts
