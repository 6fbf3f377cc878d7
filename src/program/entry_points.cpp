// Entry points: the functions (or module bodies) where a run of some role starts. Training needs
// evidence of a step (backward with an optimizer step, a training loop, Trainer(...).train(),
// trainer.fit, Lightning training_step, an override of a trainer's step methods). Inference, export and
// tooling need evidence too (generate/serving/chat apps, torch.onnx/torch.export/TorchScript calls,
// profilers); a path convention (inference/, tools/, scripts/convert_*) only decides which of those an
// entry script is when it does not train.
#include <algorithm>
#include <unordered_set>

#include "program/call_graph_support.hpp"
#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

bool any_of_prefix(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return starts_with(name, p); });
}

bool is_trainer_class(std::string_view dotted) {
  return (starts_with(dotted, "transformers.") || starts_with(dotted, "trl.") ||
          starts_with(dotted, "optimum.neuron.") || starts_with(dotted, "lightning.") ||
          starts_with(dotted, "pytorch_lightning.") || starts_with(dotted, "accelerate.")) &&
         (ends_with(dotted, "Trainer") || ends_with(dotted, ".Fabric"));
}

// `trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks, logger=logger)`: a Hydra config
// names the trainer class (Lightning's, in the lightning-hydra template and its many descendants).
bool instantiates_trainer(const facts::CallFact& call) {
  const std::string_view callee = call.callee.dotted();
  if ((callee != "hydra.utils.instantiate" && callee != "hydra.utils.call") || call.args.empty() ||
      !call.args[0].keyword.empty())
    return false;
  return contains(to_lower(call.args[0].value), "trainer");
}

bool is_lightning_module(std::string_view dotted) {
  return ends_with(dotted, "LightningModule");
}

bool is_export_call(std::string_view callee) {
  return any_of_prefix(callee, {"torch.onnx.", "torch.export.", "torch._export.", "executorch.", "coremltools.",
                                "onnxruntime.", "tensorrt.", "torch_tensorrt."}) ||
         callee == "torch.jit.trace" || callee == "torch.jit.script" || callee == "torch.jit.save" ||
         callee == "torch.jit.trace_module";
}

bool is_tooling_call(std::string_view callee) {
  return any_of_prefix(callee, {"torch.profiler.", "torch.utils.benchmark.", "triton.testing.", "matplotlib.",
                                "torch.autograd.profiler."});
}

bool is_serving_import(std::string_view module) {
  return any_of_prefix(module, {"gradio", "streamlit", "chainlit", "fastapi", "flask", "uvicorn", "vllm",
                                "text_generation_server", "sglang", "tensorrt_llm", "lmdeploy"});
}

/// `evaluate`, `eval_model`, `run_evaluation`: not `validate_and_update_archs` or `test_kernels`, which
/// the region's broader evaluation names include.
bool is_evaluation_name(std::string_view name) {
  const std::string lower = to_lower(name);
  return starts_with(lower, "eval") || contains(lower, "evaluat");
}

bool is_inference_name(std::string_view name) {
  return name == "generate" || name == "sample" || name == "chat" || name == "serve" || name == "predict" ||
         any_of_prefix(name, {"generate_", "sample_", "infer", "decode_", "beam_search", "greedy_search", "stream_",
                              "run_inference", "chat_"});
}

/// The non-training role a path suggests for an entry script that does not train (tie-breaker only).
class EntryFinder {
 public:
  explicit EntryFinder(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    collect_backward_methods();
    m_called = reached_or_named(m_impl);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) scan_file(FileId{f});
    demote_evaluation_jobs();
    add_run_drivers();
  }

 private:
  void add(FunctionId fn, Role role, std::string why) {
    m_impl.entries.push_back(EntryPoint{fn, role, std::move(why)});
  }

  // A script in an evaluation folder that trains (dinov2's `eval/linear.py` fits linear heads on frozen
  // features, a k-NN or few-shot protocol fine-tunes a probe) is an evaluation job of its own when the repo
  // trains elsewhere: the path breaks the tie between two kinds of training, and the job is judged as
  // inference, off the repo's training path. A repo whose only training sits there keeps it.
  void demote_evaluation_jobs() {
    const auto here = [&](const EntryPoint& e) {
      return in_evaluation_place(m_impl.files[e.function.file.value].path);
    };
    m_impl.trains_outside_evaluation =
        std::any_of(m_impl.entries.begin(), m_impl.entries.end(), [&](const EntryPoint& e) {
          return e.role == Role::training_step && !m_impl.files[e.function.file.value].is_test && !here(e);
        });
    if (!m_impl.trains_outside_evaluation) return;
    for (auto& e : m_impl.entries) {
      if (!training_roles().test(static_cast<std::size_t>(e.role)) || m_impl.files[e.function.file.value].is_test ||
          !here(e))
        continue;
      e.role = Role::inference;
      e.why =
          "an evaluation job in an evaluation folder (it trains a probe or head of its own; the repo trains elsewhere)";
    }
    m_runs.erase(std::remove_if(m_runs.begin(), m_runs.end(),
                                [&](FunctionId run) { return in_evaluation_place(m_impl.files[run.file.value].path); }),
                 m_runs.end());
  }

  // True when the file's top-level training runs only under `if __name__ == "__main__":`, other non-test code
  // of the repo imports the module, and no shell script of the repo launches it.
  bool main_block_self_test(FileId id) const {
    const auto& file = m_impl.files[id.value];
    if (m_impl.imported_by[id.value].empty()) return false;
    bool any = false;
    for (const auto& call : file.calls) {
      if (call.ctx.function >= 0 || call.method != "backward") continue;
      if (!call.ctx.has(facts::Guard::main_block)) return false;
      any = true;
    }
    if (!any) return false;
    const std::string_view path = file.path.view();
    const std::string_view name = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
    for (const auto& other : m_impl.files) {
      for (const auto& launched : other.launched_programs) {
        const std::string_view program = launched.view();
        if (ends_with(program, "/" + std::string(name)) || program == name || file.module_name == program) return false;
      }
    }
    return true;
  }

  // The names of the repo's methods that run backward themselves (fairseq's `FairseqTask.train_step`:
  // `optimizer.backward(loss)`) or an optimizer step (`FairseqTask.optimizer_step`), outside tests and vendored
  // copies: a function that calls them by name (`self.task.train_step(...)`, the receiver's class unknown)
  // beside an optimizer step, or both kinds, runs a training step.
  void collect_backward_methods() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test || m_impl.vendored[f]) continue;
      // (Not a method whose own loop runs backward, `run_training`: that is a whole run, which the script calling
      // it drives; roles' run drivers handle it.)
      std::vector<bool> loops(file.functions.size(), false);
      for (std::size_t i = 0; i < file.loops.size(); ++i) {
        const auto& loop = file.loops[i];
        if (loop.function >= 0 && trains_in_loop(m_impl, FileId{f}, static_cast<std::int32_t>(i)))
          loops[static_cast<std::size_t>(loop.function)] = true;
      }
      for (std::size_t i = 0; i < file.functions.size(); ++i) {
        const auto& fn = file.functions[i];
        // (Not a name every module or optimizer has, `forward`, `step`: a VQ codebook's `forward` that runs
        // backward says nothing of other calls by that name; call_graph_support's is_generic_method.)
        if (loops[i] || fn.klass < 0 || is_generic_method(fn.name.str())) continue;
        if (fn.calls_backward) m_backward_methods.insert(std::string(fn.name.view()));
        if (fn.calls_optimizer_step) m_step_methods.insert(std::string(fn.name.view()));
      }
    }
  }

  void scan_file(FileId id) {
    const auto& file = m_impl.files[id.value];
    if (file.is_test) {
      add(FunctionId{id, -1}, Role::test, "test file");
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i)
        add(FunctionId{id, i}, Role::test, "test file");
      return;
    }
    if (m_impl.vendored[id.value]) return;  // another project's scripts: not this repo's entry points
    const std::size_t slots = file.functions.size() + 1;
    std::vector<bool> trains(slots, false), step(slots, false), backward(slots, false), backward_via(slots, false),
        backward_method(slots, false), step_method(slots, false);
    std::vector<bool> builds_trainer(slots, false), calls_train(slots, false), exports(slots, false),
        tools(slots, false);
    std::vector<bool> generates(slots, false), pipeline_batch(slots, false), timed(slots, false);
    bool has_main_block = false;
    bool updates_weights = false;  // an optimizer, a step or a zero_grad anywhere in the file
    const auto slot = [&](std::int32_t fn) { return fn < 0 ? file.functions.size() : static_cast<std::size_t>(fn); };
    // (A loop that trains only through calls of step pieces makes its function an entry when the repo reaches or
    // names it (program/step_loops' reached_or_named):
    // `Distiller(...).run()`. A library method no code of the repo calls, the vendored `PPOTrainer.step` of a copy of
    // trl, is an API the repo does not use.)
    for (std::size_t i = 0; i < file.loops.size(); ++i) {
      const auto& loop = file.loops[i];
      if (!trains_in_loop(m_impl, id, static_cast<std::int32_t>(i))) continue;
      if (loop.calls_backward || loop.function < 0 || m_called[id.value][static_cast<std::size_t>(loop.function)])
        trains[slot(loop.function)] = true;
    }
    for (const auto& call : file.calls) {
      const std::size_t s = slot(call.ctx.function);
      const FactString& callee = call.callee.dotted();
      const std::string receiver = to_lower(call.receiver_text);
      has_main_block |= call.ctx.has(facts::Guard::main_block);
      if (runs_backward(call)) backward[s] = true;
      // (On another object: `self.task.train_step(...)`. A method of the function's own class, `self.optimize(loss)`,
      // is the step the class's loop calls: that method is the entry, and the loop that calls it the driver.)
      const bool delegated = !call.method.empty() && !call.receiver_is_self;
      if (delegated && call.method != "backward" && m_backward_methods.count(std::string(call.method.view())))
        backward_method[s] = true;
      if (delegated && call.method != "step" && m_step_methods.count(std::string(call.method.view())))
        step_method[s] = true;
      if (steps_optimizer(call)) step[s] = true;
      if (is_trainer_class(callee) || (call.method.empty() && ends_with(call.callee_text, "Trainer")) ||
          instantiates_trainer(call))
        builds_trainer[s] = true;
      if ((call.method == "train" || call.method == "fit") && contains(receiver, "trainer")) calls_train[s] = true;
      if (is_export_call(callee)) exports[s] = true;
      if (is_tooling_call(callee)) tools[s] = true;
      if (call.method == "generate") generates[s] = true;
      if (callee == "time.time" || callee == "time.perf_counter" || callee == "time.monotonic" ||
          callee == "torch.cuda.synchronize" || callee == "torch.cuda.Event" || starts_with(callee.view(), "timeit."))
        timed[s] = true;
      updates_weights |= call.method == "step" || call.method == "zero_grad" ||
                         starts_with(callee.view(), "torch.optim.") || contains(to_lower(call.callee_text), "optim");
      // `loss_scaler(loss, optimizer, clip_grad=...)`: timm's NativeScaler (and its copies) run backward and the
      // optimizer step in `__call__`.
      if (call.method.empty() && call.args.size() >= 2 && call.args[0].keyword.empty() &&
          call.args[0].value.find("loss") != std::string::npos &&
          (ends_with(to_lower(call.callee_text), "scaler") || contains(to_lower(call.callee_text), "loss_scaler"))) {
        backward[s] = true;
        step[s] = true;
      }
      // DeepSpeed's PipelineEngine.train_batch() runs forward, backward and the optimizer step of one batch.
      if (call.method == "train_batch" && (contains(receiver, "engine") || contains(receiver, "model")))
        pipeline_batch[s] = true;
    }
    // `backward_step(model, loss)` beside `model.step()`: the backward sits in a helper of the same file.
    std::vector<std::size_t> helpers;  // top-level functions that call backward
    for (std::size_t h = 0; h < file.functions.size(); ++h) {
      if (backward[h] && file.functions[h].parent < 0 && file.functions[h].klass < 0) helpers.push_back(h);
    }
    for (const auto& call : file.calls) {
      if (helpers.empty()) break;
      if (!call.method.empty()) continue;
      for (const std::size_t h : helpers) {
        if (file.functions[h].name == call.callee_text && slot(call.ctx.function) != h)
          backward_via[slot(call.ctx.function)] = true;
      }
    }
    bool serving = false;
    for (const auto& import : file.imports) serving |= is_serving_import(import.module.dotted());

    // A benchmark or profiling script runs training steps to time them: it is tooling, not a training run.
    const std::optional<Role> path_role = role_by_path(file.path);
    // So is a file that times forward and backward passes and never updates the weights (no optimizer, no
    // step, no zero_grad): an MFU benchmark measures the passes, it does not train.
    bool measures_passes = false;
    for (std::size_t s = 0; s < slots; ++s)
      measures_passes |= (trains[s] || backward[s]) && timed[s] && !updates_weights;
    const bool times_steps =
        measures_passes ||
        (path_role == Role::tooling && (std::any_of(tools.begin(), tools.end(), [](bool b) { return b; }) ||
                                        starts_with(to_lower(file.path.substr(file.path.rfind('/') + 1)), "bench")));
    // `trainer = init_components(args)` ... `trainer.train()`: the trainer may be built by another function of
    // the script (which returns it) than the one that runs it.
    const bool script_builds_trainer =
        std::any_of(builds_trainer.begin(), builds_trainer.end(), [](bool b) { return b; });
    bool any_training = false;
    for (std::size_t s = 0; s < slots && !times_steps; ++s) {
      const std::int32_t fn = s == file.functions.size() ? -1 : static_cast<std::int32_t>(s);
      const FunctionId here{id, fn};
      // `def test_toy_model():` training a toy model for a few steps beside the library code tests it.
      if (fn >= 0 && (backward[s] || trains[s]) && !file.is_test && is_test_helper(file, fn)) {
        add(here, Role::test, "a test kept beside the library code");
        continue;
      }
      // The `__main__` block of a module the repo's code imports, training a toy model for a few steps (a
      // memory or gradient check of `networks/control_net_lllite.py`): a self-test, unless a shipped script
      // launches the module.
      if (fn < 0 && (backward[s] || trains[s]) && main_block_self_test(id)) {
        add(here, Role::test, "a self-test in the __main__ block of a module the repo imports");
        continue;
      }
      if ((backward[s] || backward_via[s]) && step[s]) {
        add(here, Role::training_step, "calls backward() and an optimizer step");
      } else if ((backward_method[s] && (step[s] || step_method[s])) ||
                 ((backward[s] || backward_via[s]) && step_method[s])) {
        add(here, Role::training_step, "calls backward() and an optimizer step through repo methods");
      } else if (pipeline_batch[s]) {
        add(here, Role::training_step, "runs DeepSpeed's pipeline engine (train_batch)");
      } else if (trains[s]) {
        add(here, Role::training_step, "runs a loop that calls backward()");
      } else if (builds_trainer[s] && calls_train[s]) {
        add(here, Role::training_step, "builds a trainer and calls train()/fit()");
      } else if (calls_train[s] && script_builds_trainer) {
        add(here, Role::training_step, "calls train()/fit() of the trainer the script builds");
      } else {
        continue;
      }
      if (!file.is_test) m_runs.push_back(here);
      any_training = true;
    }
    scan_methods(id, any_training);
    // The top level of a script that trains (`if __name__ == "__main__": main()`) sets that run up.
    if (any_training && has_main_block) add(FunctionId{id, -1}, Role::setup, "the top level of a training script");
    for (std::size_t s = 0; s < slots; ++s) {
      const std::int32_t fn = s == file.functions.size() ? -1 : static_cast<std::int32_t>(s);
      if (exports[s]) add(FunctionId{id, fn}, Role::export_, "exports the model (ONNX, torch.export or TorchScript)");
      if (tools[s]) add(FunctionId{id, fn}, Role::tooling, "profiles, benchmarks or plots");
    }
    // `@torch.inference_mode(False)` / `(mode=False)` turns inference mode off: no evidence of inference.
    std::vector<std::uint32_t> disabled_lines;
    for (const auto& deco : file.decorators) {
      if (deco.decorator.dotted() != "torch.inference_mode") continue;
      for (const auto& arg : deco.args) {
        if ((arg.keyword.empty() || arg.keyword == "mode") && arg.value == "False")
          disabled_lines.push_back(deco.at.line);
      }
    }
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
      const auto& fn = file.functions[static_cast<std::size_t>(i)];
      const bool disabled = std::any_of(disabled_lines.begin(), disabled_lines.end(), [&](std::uint32_t line) {
        return line < fn.at.line + 1 && fn.at.line <= line + 4;
      });
      const bool inference_mode =
          !disabled && std::any_of(fn.decorators.begin(), fn.decorators.end(),
                                   [](const QualifiedName& d) { return d.dotted() == "torch.inference_mode"; });
      if (inference_mode)
        add(FunctionId{id, i}, Role::inference, "decorated with @torch.inference_mode");
      else if (is_inference_name(fn.name) && !backward[static_cast<std::size_t>(i)])
        add(FunctionId{id, i}, Role::inference, "generates or predicts (`" + fn.name + "`)");
    }
    if (serving && !any_training) {  // a serving engine's worker or a demo app: all of it serves
      m_serving_entries.emplace_back(id, m_impl.entries.size());
      add(FunctionId{id, -1}, Role::inference, "a serving or demo app");
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i)
        add(FunctionId{id, i}, Role::inference, "part of a serving or demo app");
    }
    if (times_steps) add(FunctionId{id, -1}, Role::tooling, "a benchmark script that times training steps");
    const std::size_t module_calls = static_cast<std::size_t>(std::count_if(
        file.calls.begin(), file.calls.end(), [](const facts::CallFact& c) { return c.ctx.function < 0; }));
    // A script whose top level calls its own generate()/predict()/evaluate() function is a generation or
    // evaluation script (`hellaswag.py`'s `__main__` block runs `evaluate(model_type, device)`).
    const bool runs_own_inference = std::any_of(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& c) {
      return c.ctx.function < 0 && c.method.empty() &&
             (is_inference_name(c.callee_text) || is_evaluation_name(c.callee_text)) &&
             std::any_of(file.functions.begin(), file.functions.end(), [&](const facts::FunctionInfo& fn) {
               return fn.parent < 0 && fn.klass < 0 && fn.name == c.callee_text;
             });
    });
    // A module of no package (at the top, or in a folder without `__init__.py`) doing work at its top
    // level is a script run as `python path/to/it.py`.
    const std::string_view module = file.module_name.view();
    const auto dot = module.rfind('.');
    const bool script_folder = dot == std::string_view::npos || !m_impl.symbols->module(module.substr(0, dot));
    const bool entry_script =
        has_main_block || runs_own_inference || (!file.is_package_init && module_calls > 3 && script_folder);
    if (any_training || times_steps || !entry_script) return;
    // An entry script that does not train: the path tells which kind of tool it is.
    const bool generates_anything =
        runs_own_inference || std::any_of(generates.begin(), generates.end(), [](bool b) { return b; });
    std::optional<Role> role = path_role;
    if (generates_anything && role != Role::export_) role = Role::inference;
    // `evaluate.py`, `eval_checkpoint.py`: a script that scores a trained model runs it for inference.
    const std::string stem = to_lower(file.path.substr(file.path.rfind('/') + 1));
    if (!role && starts_with(stem, "eval")) role = Role::inference;
    if (!role) return;
    // `scripts/image_train.py` calling the repo's `TrainLoop(...).run_loop()`: a folder of scripts is only a
    // tie-breaker, so add_run_drivers may still find it drives a training run (not a benchmark's or profiler's folder).
    const std::string lower = to_lower(file.path);
    if (*role == Role::tooling && !contains(lower, "bench") && !contains(lower, "profil"))
      m_path_tooling_entries.push_back(m_impl.entries.size());
    add(FunctionId{id, -1}, *role, "an entry script under a " + std::string(to_string(*role)) + " path");
  }

  // Methods that a framework calls as the training step.
  void scan_methods(FileId id, bool& any_training) {
    const auto& file = m_impl.files[id.value];
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
      const auto& fn = file.functions[static_cast<std::size_t>(i)];
      if (fn.klass < 0) continue;
      bool lightning = false, trainer = false;
      for (const auto& base : file.classes[static_cast<std::size_t>(fn.klass)].bases) {
        lightning |= is_lightning_module(base.dotted());
        trainer |= ends_with(base.dotted(), "Trainer");
      }
      if (lightning && fn.name == "training_step") {
        add(FunctionId{id, i}, Role::training_step, "Lightning training_step");
        any_training = true;
      } else if (trainer && (fn.name == "compute_loss" || fn.name == "training_step" ||
                             fn.name == "_inner_training_loop" || fn.name == "train_step" ||
                             // HF Trainer's training_step starts with it: RL trainers generate their rollouts there.
                             fn.name == "_prepare_inputs")) {
        add(FunctionId{id, i}, Role::training_step, "overrides the trainer's `" + fn.name + "`");
        any_training = true;
      }
    }
  }

  // A function or script body that runs a repo training run (a notebook cell calling the repo's
  // `train(model, loader, optimizer, ...)`, a `main()` calling `fit(...)`, and whatever calls those)
  // sets that run up: it is a run's setup, so what it does before and after the call runs once, on the
  // training path. Only calls that name their target count (not a method linked by name or one of a
  // registry's classes: `model.train()` is not a call of some repo `train`), a method of the one repo class
  // a local holds (`distiller = Distiller(...)` then `distiller.train()`), and functions handed over
  // as values (`launch(main, ...)`, `mp.spawn(worker)`). Code that already trains keeps its role.
  // `distiller.train()` where the local holds one repo class: the call names that class's method.
  // `TrainLoop(model=model, ...).run_loop()` (improved-diffusion) likewise: the receiver constructs that class.
  bool instance_method_call(const facts::FileFacts& file, const Edge& edge) const {
    if (edge.target.index < 0) return false;
    const auto& call = file.calls[static_cast<std::size_t>(edge.call)];
    if (call.method.empty() || !call.callee.empty() || call.receiver_is_self) return false;
    const auto& target_file = m_impl.files[edge.target.file.value];
    const auto& target = target_file.functions[static_cast<std::size_t>(edge.target.index)];
    if (target.klass < 0 || target.name != call.method) return false;
    if (const std::string builder = receiver_builder(call); !builder.empty())
      return last_name(builder) == target_file.classes[static_cast<std::size_t>(target.klass)].name.view();
    return call.receiver_text.find_first_of(".()[]") == std::string::npos;
  }

  // `train_strategy.run_training(...)` on a strategy a factory returns (prismatic-vlms' scripts/pretrain.py): a
  // receiver of unknown type, linked by name to the one repo method so named. A name that says it trains
  // (`run_training`, `train_one_epoch`, not the generic `train` that `model.train()` also calls) is that method.
  bool names_training_method(const Edge& edge) const {
    if (edge.target.index < 0) return false;
    const auto& fn = m_impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)];
    const std::string name = to_lower(fn.name);
    return name != "train" && name != "training" && name.find("train") != std::string::npos;
  }

  void add_run_drivers() {
    const auto& files = m_impl.files;
    std::vector<std::vector<std::vector<FunctionId>>> callers(files.size());
    for (std::uint32_t f = 0; f < files.size(); ++f) callers[f].resize(files[f].functions.size() + 1);
    for (std::uint32_t f = 0; f < files.size(); ++f) {
      if (files[f].is_test) continue;
      for (std::size_t s = 0; s < m_impl.edges[f].size(); ++s) {
        const FunctionId caller{FileId{f}, s == files[f].functions.size() ? -1 : static_cast<std::int32_t>(s)};
        for (const Edge& edge : m_impl.edges[f][s]) {
          if (edge.constructs || edge.dispatch || edge.target.index < -1) continue;
          if (edge.name_linked && !names_training_method(edge)) continue;
          if (edge.call >= 0 && !edge.by_name && !edge.name_linked && !instance_method_call(files[f], edge)) continue;
          callers[edge.target.file.value][m_impl.slot(edge.target)].push_back(caller);
        }
      }
    }
    std::vector<std::vector<char>> entry(files.size());
    for (std::uint32_t f = 0; f < files.size(); ++f) entry[f].assign(files[f].functions.size() + 1, 0);
    std::vector<std::pair<FunctionId, FunctionId>> queue;  // (function, the training function it runs)
    std::vector<FileId> drives;                            // files of the functions found to drive a run
    // A script a `generate` call or its path made an inference entry still drives the run it starts:
    // calling the repo's training function is the stronger evidence. A benchmark or profiling script
    // (tooling) and export code run training code without being a training run.
    // (An entry only a folder of scripts made tooling may still drive a run.)
    std::vector<char> by_path(m_impl.entries.size(), 0);
    for (const std::size_t e : m_path_tooling_entries) by_path[e] = 1;
    for (std::size_t e = 0; e < m_impl.entries.size(); ++e) {
      const EntryPoint& point = m_impl.entries[e];
      if (point.role != Role::inference && !by_path[e])
        entry[point.function.file.value][m_impl.slot(point.function)] = 1;
    }
    for (const FunctionId run : m_runs) queue.emplace_back(run, run);
    for (std::size_t next = 0; next < queue.size(); ++next) {
      const auto [fn, trains] = queue[next];
      for (const FunctionId caller : callers[fn.file.value][m_impl.slot(fn)]) {
        char& seen = entry[caller.file.value][m_impl.slot(caller)];
        if (seen || m_impl.vendored[caller.file.value]) continue;
        seen = 1;
        const auto& file = files[trains.file.value];
        const std::string name =
            trains.index >= 0 ? file.functions[static_cast<std::size_t>(trains.index)].qualname : "<module>";
        add(caller, Role::setup, "runs the training function `" + name + "` (" + file.path + ")");
        queue.emplace_back(caller, trains);
        drives.push_back(caller.file);
      }
    }
    // A script that only its folder made tooling and that starts a training run is that run's driver.
    for (const std::size_t e : m_path_tooling_entries) {
      EntryPoint& point = m_impl.entries[e];
      if (std::find(drives.begin(), drives.end(), point.function.file) == drives.end()) continue;
      point.role = Role::setup;
      point.why = "a script that drives a training run (in a folder of scripts)";
    }
    // A file taken for a serving app (it imports vLLM) whose code starts a training run is that run's driver:
    // an RL recipe generates rollouts with the engine and trains on them (`worker.train.remote()`). Its
    // code sets the run up rather than serving requests.
    // One a training script imports (open-instruct's `data_loader.py` imports vllm and feeds the DPO and GRPO
    // trainers) runs its top level, imports included, when that script starts: setup. Its functions keep
    // their serving role and take the roles of the training code that calls them. (A module with a `__main__`
    // block is a script too, whose top level serves when run: TRL's `vllm_client.py` demo.)
    std::vector<char> trains(m_impl.files.size(), 0);
    for (const EntryPoint& entry : m_impl.entries) {
      if (training_roles().test(static_cast<std::size_t>(entry.role)) &&
          !m_impl.files[entry.function.file.value].is_test)
        trains[entry.function.file.value] = 1;
    }
    for (const auto& [file, first] : m_serving_entries) {
      const auto& calls = m_impl.files[file.value].calls;
      if (std::any_of(calls.begin(), calls.end(), [](const auto& c) { return c.ctx.has(facts::Guard::main_block); }))
        continue;
      const auto& importers = m_impl.imported_by[file.value];
      if (std::any_of(importers.begin(), importers.end(), [&](const auto& i) { return trains[i.first.value] != 0; }) &&
          m_impl.entries[first].role == Role::inference) {
        m_impl.entries[first].role = Role::setup;
        m_impl.entries[first].why = "a module a training script imports (it also imports a serving engine)";
      }
    }
    for (const auto& [file, first] : m_serving_entries) {
      if (std::find(drives.begin(), drives.end(), file) == drives.end()) continue;
      const std::size_t count = m_impl.files[file.value].functions.size() + 1;
      for (std::size_t e = first; e < first + count; ++e) {
        m_impl.entries[e].role = Role::setup;
        m_impl.entries[e].why = e == first ? "a script that drives a training run (it also runs a serving engine)"
                                           : "part of a script that drives a training run";
      }
    }
  }

  std::vector<std::vector<char>> m_called;  ///< per file, per function: the repo reaches or names it
  Program::Impl& m_impl;
  /// Code that runs training itself (backward with a step, a loop calling backward, a trainer's
  /// train()/fit()), not a step method a framework calls (`compute_loss`, Lightning `training_step`):
  /// an evaluation's `prediction_step` calling `compute_loss` does not drive a run.
  std::vector<FunctionId> m_runs;
  std::unordered_set<std::string> m_backward_methods;  ///< collect_backward_methods
  std::unordered_set<std::string> m_step_methods;
  /// Files taken for a serving or demo app, each with the index of its first such entry in Impl::entries
  /// (the module body's, followed by one per function).
  std::vector<std::pair<FileId, std::size_t>> m_serving_entries;
  /// Entries (indices into m_impl.entries) that only a script folder's path made tooling (`scripts/`, `tools/`).
  std::vector<std::size_t> m_path_tooling_entries;
};

}  // namespace

namespace {
/// A lower-cased repo path: whether a folder of it has a name, and its file name (the stem tests use).
struct LowerPath {
  explicit LowerPath(std::string_view path) : lower(to_lower(path)) {}
  bool in(std::string_view folder) const {
    const std::string segment = std::string(folder) + "/";
    return starts_with(lower, segment) || contains(lower, "/" + segment);
  }
  std::string_view stem() const {
    return std::string_view(lower).substr(lower.rfind('/') == std::string::npos ? 0 : lower.rfind('/') + 1);
  }
  std::string lower;
};
}  // namespace

bool in_evaluation_place(std::string_view path) {
  const LowerPath p(path);
  if (p.in("eval") || p.in("evals") || p.in("evaluation") || p.in("evaluations") || p.in("evaluate") ||
      starts_with(p.stem(), "eval"))
    return true;
  // A folder named for an evaluation suite: MiniCPM-V's `eval_mm/vlmevalkit/`, `evaluation_suite/`.
  for (std::size_t from = 0; from < p.lower.size();) {
    const auto slash = p.lower.find('/', from);
    if (slash == std::string::npos) break;  // the file name is no folder
    const std::string_view folder = std::string_view(p.lower).substr(from, slash - from);
    if (starts_with(folder, "eval_") || starts_with(folder, "evaluation_")) return true;
    from = slash + 1;
  }
  return false;
}

bool evaluation_launch_path(std::string_view path_text) {
  const std::string path = to_lower(path_text);
  const auto names_evaluation = [](std::string_view word) {
    return word == "eval" || word == "evals" || word == "evaluation" || word == "evaluations";
  };
  bool evaluation = false;
  for (std::size_t from = 0; from < path.size();) {
    const auto slash = path.find('/', from);
    const std::string_view part =
        std::string_view(path).substr(from, slash == std::string::npos ? slash : slash - from);
    if (slash == std::string::npos) {
      evaluation |= starts_with(part, "eval");
      // A word of the file's name: `mcli-1b-eval.yaml`, `llama_eval.sh`, `zero3-infer.yaml` (not `retrieval.yaml`).
      for (std::size_t w = 0; w < part.size();) {
        const auto end = part.find_first_of("-_.", w);
        const std::string_view word = part.substr(w, end == std::string_view::npos ? end : end - w);
        evaluation |= names_evaluation(word) || word == "inference" || word == "infer";
        w = end == std::string_view::npos ? part.size() : end + 1;
      }
    } else {
      evaluation |= names_evaluation(part) || part == "inference";
    }
    from = slash == std::string::npos ? path.size() : slash + 1;
  }
  return evaluation;
}

std::optional<Role> role_by_path(std::string_view path) {
  const LowerPath p(path);
  const auto in = [&](std::string_view folder) { return p.in(folder); };
  const std::string_view stem = p.stem();
  if (in("export") || in("_export") || starts_with(stem, "convert") || starts_with(stem, "export"))
    return Role::export_;
  // `hubconf.py` and a `hub/` folder load pretrained models for `torch.hub.load` users: inference.
  if (in("inference") || in("serve") || in("serving") || in("demo") || in("demos") || in("generate") || in("chat") ||
      in("deploy") || in("hub") || starts_with(stem, "generate") || starts_with(stem, "sample") ||
      starts_with(stem, "infer") || starts_with(stem, "chat") || starts_with(stem, "demo") ||
      starts_with(stem, "app") || stem == "hubconf.py")
    return Role::inference;
  if (in("benchmarks") || in("benchmark") || in("bench") || in("tools") || in("scripts") || in("profiling") ||
      in("docs") || in("visualization") || in("viz") || starts_with(stem, "bench") || starts_with(stem, "profile") ||
      starts_with(stem, "visuali") || starts_with(stem, "plot") ||
      // `profiler-example-traces/train_gpt-profiler-example.py`: a copy of a training script that records traces.
      to_lower(path).find("profiler") != std::string::npos)
    return Role::tooling;
  return std::nullopt;
}

void find_entry_points(Program::Impl& impl) {
  EntryFinder(impl).run();
}

}  // namespace tr2audit::program
