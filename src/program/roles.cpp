// Roles: breadth-first from every entry point along the call graph. A callee keeps a role of its own
// where its name says one (a module's forward, a collator, an evaluation loop); constructing a repo
// class in some role runs its forward in that role; calls outside the training loop of a function that
// drives one are setup. Each function remembers the first caller that reached it, for reached_from.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <utility>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::program {
namespace {

constexpr std::uint16_t k_not_training = facts::guard_bit(facts::Guard::not_training);
constexpr int k_runner_rounds = 8;

bool is_training(Role role) {
  return training_roles().test(static_cast<std::size_t>(role));
}

// A rollout (`generate_trajectory`, `collect_rollouts`, RLHF's `make_experience`) called from step code every
// step is part of the step (PPO/GRPO), not an evaluation, even though its name reads like one. A plain
// `generate_example` stays evaluation: it is a preview wherever it is called from.
bool named_like_rollout(std::string_view name) {
  const std::string lower = to_lower(name);
  return lower.find("rollout") != std::string::npos || lower.find("trajector") != std::string::npos ||
         lower.find("experience") != std::string::npos;
}

// A logging helper (`train_step_logs`, `log_metrics`, `_report_stats`): what the loop calls every N steps to log is
// step code under a periodic gate, not an evaluation. (Word parts, so that `logits` is none.)
bool named_like_logging(std::string_view name) {
  const std::string lower = to_lower(name);
  std::size_t start = 0;
  while (start <= lower.size()) {
    std::size_t end = lower.find('_', start);
    if (end == std::string::npos) end = lower.size();
    const std::string_view part = std::string_view(lower).substr(start, end - start);
    if (part == "log" || part == "logs" || part == "logging" || part == "metrics" || part == "stats") return true;
    start = end + 1;
  }
  return false;
}

// Data code: a function named or placed like data loading (`make_coco_transforms`, a collator), or a
// method of a dataset class (`CocoDetection.__init__`).
bool builds_data(const facts::FileFacts& file, std::int32_t function) {
  if (function < 0) return false;
  if (facts::function_role(file, function) == facts::Region::data_pipeline) return true;
  const std::int32_t klass = file.functions[static_cast<std::size_t>(function)].klass;
  if (klass < 0) return false;
  const auto& cls = file.classes[static_cast<std::size_t>(klass)];
  return std::any_of(cls.bases.begin(), cls.bases.end(), [](const QualifiedName& base) {
    const std::string name = to_lower(base.dotted());  // torchvision.datasets.CocoDetection
    return name.find("dataset") != std::string::npos || name.find("dataloader") != std::string::npos;
  });
}

bool inference_mode(const facts::FunctionInfo& fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(),
                     [](const QualifiedName& d) { return d.dotted() == "torch.inference_mode"; });
}

// `fit`/`train`/`step` of a plain class (no base class) that runs no backward or optimizer step itself:
// an estimator's API (`IncrementalPCA.fit`, a k-means `train`), not a training step. A library's own
// step code still reaches it when an entry point or a step calls it.
bool estimator_method(const facts::FileFacts& file, std::int32_t function) {
  const auto& fn = file.functions[static_cast<std::size_t>(function)];
  if (fn.klass < 0 || fn.calls_backward || fn.calls_optimizer_step) return false;
  if (fn.name != "fit" && fn.name != "train" && fn.name != "step") return false;
  const auto& cls = file.classes[static_cast<std::size_t>(fn.klass)];
  return cls.bases.empty() && cls.base_texts.empty();
}

// A subcommand a CLI dispatches on (`elif command == "chat":`, `if args.mode == "export":`): the role its
// branch runs in when the word names a run that is not training. "train", "sft", "webui" (a UI that
// launches training) and words the table lacks keep the caller's role.
std::optional<Role> command_word_role(std::string_view word) {
  static constexpr std::pair<std::string_view, Role> k_words[] = {
      {"chat", Role::inference},       {"webchat", Role::inference}, {"serve", Role::inference},
      {"server", Role::inference},     {"api", Role::inference},     {"generate", Role::inference},
      {"generation", Role::inference}, {"infer", Role::inference},   {"inference", Role::inference},
      {"predict", Role::inference},    {"demo", Role::inference},    {"eval", Role::inference},
      {"evaluate", Role::inference},   {"export", Role::export_},    {"merge", Role::export_},
      {"merge_lora", Role::export_},   {"convert", Role::export_},   {"env", Role::tooling},
      {"version", Role::tooling},      {"help", Role::tooling},      {"download", Role::tooling},
      {"bench", Role::tooling},        {"benchmark", Role::tooling},
  };
  const std::string lower = to_lower(word);
  for (const auto& [w, role] : k_words) {
    if (lower == w) return role;
  }
  return std::nullopt;
}

bool names_command_selector(std::string_view dotted) {
  const std::string last =
      to_lower(dotted.substr(dotted.rfind('.') == std::string_view::npos ? 0 : dotted.rfind('.') + 1));
  return last == "command" || last == "cmd" || last == "subcommand" || last == "sub_command" || last == "action" ||
         last == "mode" || last == "run_mode" || last == "task";
}

class Propagation {
 public:
  explicit Propagation(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    m_impl.state.resize(m_impl.files.size());
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) m_impl.state[f].resize(m_impl.files[f].functions.size() + 1);
    find_training_runners();
    // Training entries first, tests last: the chain a function remembers is the one a training run takes.
    for (int pass = 0; pass < 3; ++pass) {
      m_training_pass = pass == 0;
      for (const auto& entry : m_impl.entries) {
        const int rank = is_training(entry.role) ? 0 : entry.role == Role::test ? 2 : 1;
        if (rank == pass) reach(entry.function, entry.role, std::nullopt);
      }
      drain();
    }
    m_training_pass = false;
    // A model only inference code imports (a captioning tool's vendored VLM) runs its forwards for inference;
    // what they call follows before the library defaults below.
    inference_defaults();
    drain();
    // A library's modules are built by its users: a forward (or a step) no entry point reaches keeps
    // its own role, and so does what it calls. Forwards first: a `step` that a forward calls only while
    // decoding (`self.step(...)` under `if inference_params is not None:`) is not a training step.
    for (const facts::Region kind : {facts::Region::forward, facts::Region::training_step}) {
      for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) library_defaults(FileId{f}, kind);
      drain();
    }
    imported_serving_modules();
  }

  // A module taken for a serving app (it imports vLLM) that code a training run reaches imports, directly or
  // through package `__init__`s (EasyR1's `sharding_manager/fsdp_vllm.py`, the bridge that syncs the trained
  // weights into the rollout engine, imported by the worker's `_build_rollout`): its top level runs when that
  // code imports it, in the run's setup.
  void imported_serving_modules() {
    for (const EntryPoint& entry : m_impl.entries) {
      if (entry.function.index != -1 || entry.role != Role::inference || entry.why != "a serving or demo app") continue;
      const std::uint32_t served = entry.function.file.value;
      std::vector<std::uint32_t> work{served};
      bool imported_by_training = false;
      for (std::size_t next = 0; next < work.size() && next < 16 && !imported_by_training; ++next) {
        for (const auto& [importer, index] : m_impl.imported_by[work[next]]) {
          const auto& file = m_impl.files[importer.value];
          if (file.is_test) continue;
          if (file.is_package_init) {
            if (std::find(work.begin(), work.end(), importer.value) == work.end()) work.push_back(importer.value);
            continue;
          }
          // (A function-local import runs where its function runs; a top-level one when the module loads, which
          // code of it that a training run reaches shows.)
          const auto& ctx = file.imports[index].ctx;
          const auto& states = m_impl.state[importer.value];
          imported_by_training = ctx.function >= 0
                                     ? m_impl.at(FunctionId{importer, ctx.function}).training_reached
                                     : std::any_of(states.begin(), states.end(),
                                                   [](const FunctionState& st) { return st.training_reached; });
          if (imported_by_training) break;
        }
      }
      if (imported_by_training)
        m_impl.at(FunctionId{FileId{served}, -1}).roles.set(static_cast<std::size_t>(Role::setup));
    }
  }

  // Code no entry point reaches in a module only inference code imports runs for inference, whatever its
  // name (a forward, an attention helper, a hard CUDA check).
  void inference_defaults() {
    const std::vector<bool> only = inference_only_modules(m_impl);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (!only[f]) continue;
      const auto& file = m_impl.files[f];
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
        const FunctionId id{FileId{f}, i};
        RoleSet roles = m_impl.at(id).roles;
        roles.reset(static_cast<std::size_t>(Role::test));
        if (roles.none() && !is_test_helper(file, i)) reach(id, Role::inference, std::nullopt);
      }
    }
  }

  void library_defaults(FileId f, facts::Region kind) {
    const auto& file = m_impl.files[f.value];
    if (file.is_test) return;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
      const FunctionId id{f, i};
      RoleSet roles = m_impl.at(id).roles;
      roles.reset(static_cast<std::size_t>(Role::test));  // being exercised by tests says nothing of the run
      if (roles.any() || facts::function_role(file, i) != kind) continue;
      if (kind == facts::Region::training_step && estimator_method(file, i)) continue;
      if (is_test_helper(file, i)) continue;  // `def test_toy_model():` tests the library; it is no step of it
      // ... unless the library files it under inference or export (`models/clip/inference/`, `_export/`), or
      // under evaluation in a repo that trains elsewhere (dinov2's `eval/segmentation_m2f/` heads, which only
      // its notebooks and hub entries run).
      const auto by_path = role_by_path(file.path);
      if (by_path == Role::inference || by_path == Role::export_)
        reach(id, *by_path, std::nullopt);
      else if (m_impl.trains_outside_evaluation && in_evaluation_place(file.path))
        reach(id, Role::inference, std::nullopt);
      else
        reach(id, kind == facts::Region::forward ? Role::training_forward : Role::training_step, std::nullopt);
    }
  }

  void drain() {
    while (!m_queue.empty()) {
      const auto [fn, role] = m_queue.front();
      m_queue.pop_front();
      follow(fn, role);
    }
  }

 private:
  void reach(FunctionId fn, Role role, std::optional<FunctionId> via) {
    if (fn.index < -1) return;
    FunctionState& st = m_impl.at(fn);
    if (m_training_pass) st.training_reached = true;
    if (!via) st.entry = true;
    // The chain a function remembers is the one a training run takes: a test calling a training run's
    // `main` later does not become where that run starts. Code that trains starts its own chain; code
    // that only drives a run (`main()` calling the repo's `train(...)`) keeps the script body calling it.
    const bool trains =
        st.entry && (role == Role::training_step || st.roles.test(static_cast<std::size_t>(Role::training_step)));
    if (!st.has_via && via && !trains && (m_training_pass || !st.training_reached)) {
      st.via = *via;
      st.has_via = true;
    }
    if (st.roles.test(static_cast<std::size_t>(role))) return;
    st.roles.set(static_cast<std::size_t>(role));
    m_queue.emplace_back(fn, role);
  }

  /// A method a framework calls on every training step (an entry point: a trainer's `_prepare_inputs`,
  /// `compute_loss` or `training_step` override, Lightning's `training_step`).
  bool step_hook(FunctionId fn) const {
    if (fn.index < 0) return false;
    const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
    if (info.klass < 0 || (info.name != "_prepare_inputs" && info.name != "compute_loss" &&
                           info.name != "training_step" && info.name != "train_step"))
      return false;
    return std::any_of(m_impl.entries.begin(), m_impl.entries.end(),
                       [&](const EntryPoint& e) { return e.function == fn && e.role == Role::training_step; });
  }

  bool named_like_generation(FunctionId target) const {
    if (target.index < 0) return false;
    const std::string name =
        to_lower(m_impl.files[target.file.value].functions[static_cast<std::size_t>(target.index)].name);
    return name.find("generat") != std::string::npos || name.find("sample") != std::string::npos;
  }

  bool named_like_inference(FunctionId target) const {
    if (target.index < 0) return false;
    const auto& name = m_impl.files[target.file.value].functions[static_cast<std::size_t>(target.index)].name;
    return to_lower(name).find("inference") != std::string::npos;
  }

  // The role a callee takes when code of `site` role calls it.
  Role callee_role(Role site, FunctionId target, bool periodic, bool once, bool from_step_hook) const {
    if (!is_training(site) || target.index < 0) return site;
    const auto& file = m_impl.files[target.file.value];
    const auto& fn = file.functions[static_cast<std::size_t>(target.index)];
    const auto own = facts::function_role(file, target.index);
    // Work done every N steps from the loop (evaluate, preview, sample, log) is training-eval.
    // (Not a `@torch.no_grad() def forward`: a module no step trains, EntropyBasedTokenizer's segmentation run on
    // one validation sample every `generate_every` steps for a printout.)
    const bool hot_own =
        (own == facts::Region::forward && !facts::no_grad_decorated(fn)) || own == facts::Region::data_pipeline;
    // A rollout the loop runs each epoch or every N steps (`make_experience` in PPO's `learn`) collects the
    // data the next steps train on: step code, not an evaluation.
    if (site == Role::training_step && named_like_rollout(fn.name)) return site;
    if (periodic && site == Role::training_step && !hot_own && !named_like_logging(fn.name)) return Role::training_eval;
    if (!own) return site;
    switch (*own) {
      case facts::Region::forward:
        return Role::training_forward;
      case facts::Region::data_pipeline:
        return Role::data;
      case facts::Region::training_step:
        // A backward the run's setup calls once, with no optimizer step of its own (AQLM's
        // `trigger_fsdp_lazy_init_`: one dummy backward to initialise FSDP before the loop), is setup.
        if (site == Role::setup && once && fn.calls_backward && !fn.calls_optimizer_step &&
            !drives_training_loop(m_impl, target.file, target.index))
          return Role::setup;
        return Role::training_step;
      case facts::Region::evaluation:
        // A @torch.no_grad helper called from the step (targets, label assignment) is step code.
        // Evaluation every N steps (`if it % eval_interval == 0: estimate_loss()`) is training-eval. A
        // training forward that calls `predict_proposals` every step runs it as part of the forward.
        if (site == Role::training_forward && !periodic) return site;
        // So is a generation a framework's per-step hook runs unconditionally (TRL's GRPO generates its
        // completions from `_prepare_inputs`): an on-policy rollout, not an evaluation.
        // (Or a method of a rollout worker, verl's `ActorRolloutRefWorker.generate_sequences` from the PPO loop;
        // or a generation every iteration of a loop that also runs the learner: PaLM-rlhf's episode loop.)
        if (site == Role::training_step && !periodic &&
            (named_like_rollout(fn.name) || from_step_hook ||
             (fn.klass >= 0 && named_like_rollout(file.classes[static_cast<std::size_t>(fn.klass)].name))))
          return site;
        // Called once by the body of a training run, before or after training (a demo `generate(...)`
        // after `trainer.train()`, `evaluate_safety(prompt)` in a notebook that then fine-tunes):
        // inference of the model. An evaluation each epoch (`for epoch ...: train_one_epoch(...);
        // evaluate(...)`) stays training-eval.
        // A `@torch.no_grad()` function by another name (`get_eva_state_dict`, `init_weights`) that the
        // run calls once initialises the model before training: setup. `@torch.inference_mode()` makes
        // tensors no training can use: measuring (`calculate_mean_per_token_loss`), so inference.
        if (site == Role::setup && once)
          return facts::named_like_evaluation(fn.name) || inference_mode(fn) ? Role::inference : Role::setup;
        return facts::named_like_evaluation(fn.name) || periodic ? Role::training_eval : site;
      case facts::Region::setup:
        return site == Role::training_step || site == Role::training_forward ? site : Role::setup;
      default:
        return site;
    }
  }

  void follow(FunctionId fn, Role role) {
    const auto& file = m_impl.files[fn.file.value];
    const bool drives = role == Role::training_step && drives_training_loop(m_impl, fn.file, fn.index);
    // A function that trains through `trainer.train()` sets the run up around that call: what it calls
    // before (model setup, EVA/KappaTune initialisation) or after it (a demo generate) runs once.
    // Constructed modules and functions handed to the trainer as values keep the training role.
    Span run = role == Role::training_step && !drives ? trainer_run(file, fn.index) : Span{};
    // ... and so does one that hands the run to a helper (`train()` calling `setup_model_and_trainer()` and
    // then `execute_training(trainer)`): what it calls before or after that helper runs once.
    // (Two runs in a row, `train_inversion(...)` then `perform_tuning(...)` in cloneofsimo/lora's `train`: what
    // it calls between them runs once too, so each runner call is a window of its own.)
    std::vector<Span> runs;
    if (role == Role::training_step && !drives && run.line == 0) runs = delegated_runs(fn);
    if (run.line != 0) runs.push_back(run);
    // A generation function reached as step code (a rollout) runs its own generation helpers as step code too.
    // So does a rollout (`make_experience` calling `self.generate(...)` for the PPO batch).
    const bool rollout =
        step_hook(fn) || (role == Role::training_step && fn.index >= 0 &&
                          (facts::named_like_evaluation(file.functions[static_cast<std::size_t>(fn.index)].name) ||
                           named_like_rollout(file.functions[static_cast<std::size_t>(fn.index)].name)));
    // Loops of this function that train through a call every N iterations (`if divisible_by(time,
    // update_timesteps): self.learn(memories)` in an RL trainer's episode loop): a generation the loop runs on
    // every iteration collects the data those updates train on. (Not an epoch loop that calls
    // `train_epoch(...)` and then `valid_epoch(...)` on each iteration.)
    std::vector<std::int32_t> learner_loops;
    if (role == Role::training_step) {
      for (const Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
        if (edge.call < 0 || edge.constructs || edge.target.index < 0 || !edge.periodic) continue;
        const std::int32_t loop = file.calls[static_cast<std::size_t>(edge.call)].ctx.loop;
        const auto& target =
            m_impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)];
        if (loop >= 0 && target.calls_backward) learner_loops.push_back(loop);
      }
    }
    for (Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
      Role site = drives && !edge.in_training_loop ? Role::setup : role;
      // A CLI's `elif command == "chat": run_chat()` runs the chat command, whatever reaches the CLI.
      if (edge.fixed_role && role != Role::test) site = *edge.fixed_role;
      if (edge.call >= 0 && !edge.constructs && !runs.empty() &&
          std::all_of(runs.begin(), runs.end(), [&](const Span& window) {
            return outside_trainer_run(window, file.calls[static_cast<std::size_t>(edge.call)].at.line);
          }))
        site = Role::setup;
      if (edge.constructs) {
        const Role made = is_training(site) ? Role::setup : site;
        edge.reached_as.set(static_cast<std::size_t>(made));
        if (edge.target.index >= 0) reach(edge.target, made, fn);
        // What data code builds (a dataset's `self.prepare = ConvertCocoPolysToMask()`, the transforms
        // `make_coco_transforms` composes) runs as data, not as the model's forward.
        // Hooks a function registers and removes again (EVA's or a calibration's SVD hooks around its own
        // forward passes) run only while it runs, in its role.
        const Role runs = !is_training(site) || site == Role::training_eval   ? site
                          : site == Role::data || builds_data(file, fn.index) ? Role::data
                          : site == Role::setup && temporary_hooks(fn)        ? Role::setup
                          : run_only_periodically(fn, edge.klass)             ? Role::training_eval
                                                                              : Role::training_forward;
        if (!edge.handed_over) construct(edge.klass, runs, fn);
        continue;
      }
      // A call in an eval-mode or decoding branch (`if not self.training:`, after `if self.training:
      // return losses`) runs at inference, whatever role its caller has.
      // So does a repo function named for inference (`self._forward_inference(...)` next to
      // `self._forward_training(...)` in an attention's forward).
      const bool inference =
          edge.in_engine ||
          (is_training(site) && ((edge.guards & k_not_training) != 0 || named_like_inference(edge.target)));
      if (!inference && edge.target.index >= 0 && (site == Role::training_forward || site == Role::training_step))
        m_impl.at(edge.target).called_in_training = true;
      // A call of the run's own body (a training entry: a script's top level, `main`), in no loop.
      const bool once =
          m_impl.at(fn).entry && edge.call >= 0 && file.calls[static_cast<std::size_t>(edge.call)].ctx.loop < 0;
      const bool beside_learner =
          edge.call >= 0 && !edge.periodic && named_like_generation(edge.target) &&
          std::find(learner_loops.begin(), learner_loops.end(),
                    file.calls[static_cast<std::size_t>(edge.call)].ctx.loop) != learner_loops.end();
      Role role_there =
          inference ? Role::inference : callee_role(site, edge.target, edge.periodic, once, rollout || beside_learner);
      // A library method a training run patches runs inside the model it trains: its forward. (Not a patched
      // step or run of a trainer, `RayPPOTrainer.fit = fit`: that keeps its own role, step code.)
      if (edge.patches && !inference && is_training(site) &&
          !(edge.target.index >= 0 && facts::function_role(m_impl.files[edge.target.file.value], edge.target.index) ==
                                          facts::Region::training_step))
        role_there = Role::training_forward;
      // A call that may reach one of several methods (by name, an override, a registry) carries step code
      // only from the loop or from a function that is itself step code (`training_step`): elsewhere
      // (`add_adapter` → `inject_adapter` overrides) it is setup.
      if (edge.dispatch && role_there == Role::training_step && !edge.in_training_loop &&
          (fn.index < 0 || facts::function_role(file, fn.index) != facts::Region::training_step))
        role_there = Role::setup;
      edge.reached_as.set(static_cast<std::size_t>(role_there));
      reach(edge.target, role_there, fn);
    }
  }

  // Functions that run the training: drive a loop that runs backward, call `trainer.train()`, or call (by
  // name, outside any loop) a function that does. A few rounds over the forward edges: delegation chains
  // (`do_cli` -> `do_train` -> `train` -> `execute_training`) are short.
  void find_training_runners() {
    m_runner.assign(m_impl.files.size(), {});
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      m_runner[f].assign(file.functions.size() + 1, 0);
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i)
        m_runner[f][static_cast<std::size_t>(i)] =
            drives_training_loop(m_impl, FileId{f}, i) || trainer_run(file, i).line != 0 ? 1 : 0;
    }
    for (int round = 0; round < k_runner_rounds; ++round) {
      bool grew = false;
      for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
        for (std::size_t slot = 0; slot + 1 < m_runner[f].size(); ++slot) {
          if (m_runner[f][slot] || !delegated_run(FunctionId{FileId{f}, static_cast<std::int32_t>(slot)}).line)
            continue;
          m_runner[f][slot] = 1;
          grew = true;
        }
      }
      if (!grew) break;
    }
  }

  /// Each of `fn`'s calls of training runners, when every such call sits outside loops; else none.
  std::vector<Span> delegated_runs(FunctionId fn) const {
    std::vector<Span> out;
    if (fn.index < 0 || m_runner.empty()) return out;
    const auto& file = m_impl.files[fn.file.value];
    for (const Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
      if (edge.constructs || edge.dispatch || edge.call < 0 || edge.target.index < 0) continue;
      if (!m_runner[edge.target.file.value][static_cast<std::size_t>(edge.target.index)]) continue;
      const auto& call = file.calls[static_cast<std::size_t>(edge.call)];
      if (call.ctx.loop >= 0) return {};
      out.push_back(call.at);
    }
    return out;
  }

  /// The lines of `fn`'s calls of training runners, when every such call sits outside loops; else nothing.
  Span delegated_run(FunctionId fn) const {
    if (fn.index < 0 || m_runner.empty()) return {};
    const auto& file = m_impl.files[fn.file.value];
    Span run;
    for (const Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
      if (edge.constructs || edge.dispatch || edge.call < 0 || edge.target.index < 0) continue;
      if (!m_runner[edge.target.file.value][static_cast<std::size_t>(edge.target.index)]) continue;
      const auto& call = file.calls[static_cast<std::size_t>(edge.call)];
      if (call.ctx.loop >= 0) return {};
      if (run.line == 0 || call.at.line < run.line) run.line = call.at.line;
      run.end_line = std::max(run.end_line, call.at.end_line);
    }
    return run;
  }

  // The function registers module hooks (`register_forward_hook`) and removes a handle (`handle.remove()`).
  bool temporary_hooks(FunctionId fn) {
    if (fn.index < 0) return false;
    const auto [at, fresh] = m_temporary_hooks.try_emplace({fn.file.value, fn.index}, false);
    if (!fresh) return at->second;
    bool registers = false;
    bool removes = false;
    for (const auto& call : m_impl.files[fn.file.value].calls) {
      if (call.ctx.function != fn.index) continue;
      registers |= starts_with(call.method, "register_") && ends_with(call.method, "hook");
      removes |= call.method == "remove" && call.args.empty();
    }
    return at->second = registers && removes;
  }

  // A module built in some role runs its forward in that role; a callable object (a collator, a loss)
  // runs its __call__ as data or step code.
  // A module no step trains (its forward is `@torch.no_grad()`) that `fn` builds and then runs only every N
  // steps (`tokenizer = EntropyBasedTokenizer(model)`, then `if i % generate_every == 0: tokenizer(inp)`): its
  // forward is a periodic evaluation's, not the training forward's.
  bool run_only_periodically(FunctionId fn, ClassId klass) const {
    if (klass.index < 0) return false;
    const auto run = m_impl.symbols->run_method(klass);
    if (!run || run->index < 0 ||
        !facts::no_grad_decorated(m_impl.files[run->file.value].functions[static_cast<std::size_t>(run->index)]))
      return false;
    bool called = false;
    for (const Edge& edge : m_impl.edges[fn.file.value][m_impl.slot(fn)]) {
      if (edge.constructs || !(edge.target == *run)) continue;
      if (!edge.periodic) return false;
      called = true;
    }
    return called;
  }

  void construct(ClassId klass, Role forward_role, FunctionId via) {
    auto& seen = m_constructed[{klass.file.value, klass.index}];
    if (seen.test(static_cast<std::size_t>(forward_role))) return;
    seen.set(static_cast<std::size_t>(forward_role));
    if (auto forward = m_impl.symbols->method(klass, "forward")) {
      // A `forward` that runs backward itself wraps a training step (`DecoderTrainer(decoder)`; its call is the step).
      const bool step =
          forward_role == Role::training_forward &&
          facts::function_role(m_impl.files[forward->file.value], forward->index) == facts::Region::training_step;
      reach(*forward, step ? Role::training_step : forward_role, via);
      return;
    }
    const auto call = m_impl.symbols->method(klass, "__call__");
    if (!call) return;
    if (forward_role != Role::training_forward) return reach(*call, forward_role, via);
    const auto data_named = [](std::string name) {
      name = to_lower(name);
      return name.find("collat") != std::string::npos || name.find("dataset") != std::string::npos ||
             name.find("sampler") != std::string::npos || name.find("transform") != std::string::npos ||
             name.find("tokeniz") != std::string::npos || name.find("augment") != std::string::npos;
    };
    // ... and so is one a data object builds (`utils.Solarization(0.2)` in `DataAugmentationDINO.__init__`'s
    // `transforms.Compose([...])`): a part of that transform.
    const auto& via_file = m_impl.files[via.file.value];
    const std::int32_t via_class =
        via.index >= 0 ? via_file.functions[static_cast<std::size_t>(via.index)].klass : std::int32_t{-1};
    const bool data = data_named(m_impl.files[klass.file.value].classes[static_cast<std::size_t>(klass.index)].name) ||
                      (via_class >= 0 && data_named(via_file.classes[static_cast<std::size_t>(via_class)].name)) ||
                      (via.index >= 0 && facts::function_role(via_file, via.index) == facts::Region::data_pipeline);
    reach(*call, data ? Role::data : Role::training_step, via);
  }

  Program::Impl& m_impl;
  bool m_training_pass = false;  ///< draining what training entry points reach
  std::deque<std::pair<FunctionId, Role>> m_queue;
  std::map<std::pair<std::uint32_t, std::int32_t>, RoleSet> m_constructed;
  std::map<std::pair<std::uint32_t, std::int32_t>, bool> m_temporary_hooks;  ///< per function: temporary_hooks
  std::vector<std::vector<char>> m_runner;  ///< per file, per slot: runs the training (find_training_runners)
};

}  // namespace

std::optional<Role> command_branch_role(const facts::FileFacts& file, std::int32_t branch) {
  for (int depth = 0; branch >= 0 && depth < 64; ++depth) {
    const auto& info = file.branches[static_cast<std::size_t>(branch)];
    if (!info.else_side && !info.any_of && info.terms.size() == 1) {
      const auto& term = info.terms[0];
      if (!term.negated && !term.member && !term.equals.empty() && names_command_selector(term.name)) {
        if (auto role = command_word_role(term.equals)) return role;
      }
    }
    branch = info.parent;
  }
  return std::nullopt;
}

Span trainer_run(const facts::FileFacts& file, std::int32_t function) {
  for (const auto& call : file.calls) {
    if (call.ctx.function != function || (call.method != "train" && call.method != "fit")) continue;
    if (to_lower(call.receiver_text).find("trainer") != std::string::npos) return call.at;
  }
  return {};
}

bool outside_trainer_run(const Span& run, std::uint32_t line) {
  return run.line != 0 && line != 0 && (line < run.line || line > run.end_line);
}

namespace {

// Which functions may run more than once per run: code of a repeating role (a step, a forward, an
// evaluation every N steps, data loading), a callee whose call site sits in a loop, one handed over as
// a value (a callback), and everything those call. The rest (a script's top level, the setup around a
// training call, a demo `generate` after `trainer.train()`) runs once.
void mark_repeats(Program::Impl& impl) {
  RoleSet repeating;
  for (Role r : {Role::training_forward, Role::training_step, Role::training_eval, Role::data})
    repeating.set(static_cast<std::size_t>(r));
  std::vector<FunctionId> queue;
  const auto mark = [&](FunctionId fn) {
    if (fn.index < -1) return;
    FunctionState& st = impl.at(fn);
    if (st.repeats) return;
    st.repeats = true;
    queue.push_back(fn);
  };
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    for (std::size_t s = 0; s < impl.state[f].size(); ++s) {
      const FunctionId fn{FileId{f}, s == file.functions.size() ? -1 : static_cast<std::int32_t>(s)};
      if ((impl.state[f][s].roles & repeating).any()) mark(fn);
      for (const Edge& edge : impl.edges[f][s]) {
        if (edge.call < 0 || file.calls[static_cast<std::size_t>(edge.call)].ctx.loop >= 0) mark(edge.target);
      }
    }
  }
  for (std::size_t next = 0; next < queue.size(); ++next) {
    const FunctionId fn = queue[next];
    for (const Edge& edge : impl.edges[fn.file.value][impl.slot(fn)]) mark(edge.target);
  }
}

// Reached as an entry point, or first reached through a call whose receiver's class is known (not a
// method linked to a call of unknown receiver by its name alone).
bool reached_for_certain(const Program::Impl& impl, FunctionId fn) {
  const FunctionState& st = impl.at(fn);
  if (st.entry) return true;
  if (!st.has_via) return false;
  const auto& edges = impl.edges[st.via.file.value][impl.slot(st.via)];
  return std::any_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.target == fn && !e.name_linked; });
}

// A method no call reaches, of a class whose reached methods serve only inference, export or tooling
// (`DefaultPredictor.__init__` when `__call__` is reached from a demo but the demo's import of the class
// does not resolve, or the object comes from a factory): the object is built where it is used, so the
// method takes those roles instead of looking like training setup. A class any training or test-only code
// reaches says nothing about its unreached methods, nor does a subclass of a repo class: its methods may
// run through the base's interface (`dispatcher.dispatch(...)` on whichever dispatcher a config chose).
void adopt_class_roles(Program::Impl& impl) {
  RoleSet off_training;
  for (Role r : {Role::inference, Role::export_, Role::tooling}) off_training.set(static_cast<std::size_t>(r));
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    if (file.is_test || file.classes.empty()) continue;
    std::vector<RoleSet> of_class(file.classes.size());
    std::vector<char> mixed(file.classes.size(), 0);
    for (std::size_t k = 0; k < file.classes.size(); ++k) {
      const ClassId klass{FileId{f}, static_cast<std::int32_t>(k)};
      for (std::size_t b = 0; b < file.classes[k].bases.size() && !mixed[k]; ++b) {
        if (impl.symbols->base_class(klass, b)) mixed[k] = 1;
      }
    }
    for (std::size_t s = 0; s < file.functions.size(); ++s) {
      const auto& fn = file.functions[s];
      if (fn.klass < 0 || fn.parent >= 0) continue;
      RoleSet roles = impl.state[f][s].roles;
      roles.reset(static_cast<std::size_t>(Role::test));
      const auto k = static_cast<std::size_t>(fn.klass);
      if ((roles & ~off_training).any()) mixed[k] = 1;  // however weakly linked: the class may serve training
      if (reached_for_certain(impl, FunctionId{FileId{f}, static_cast<std::int32_t>(s)})) of_class[k] |= roles;
    }
    for (std::size_t s = 0; s < file.functions.size(); ++s) {
      const auto& fn = file.functions[s];
      if (fn.klass < 0 || fn.parent >= 0 || impl.state[f][s].roles.any()) continue;
      const auto k = static_cast<std::size_t>(fn.klass);
      if (!mixed[k] && of_class[k].any()) impl.state[f][s].roles = of_class[k];
    }
  }
}

}  // namespace

void propagate_roles(Program::Impl& impl) {
  Propagation(impl).run();
  adopt_class_roles(impl);
  mark_repeats(impl);
}

}  // namespace tr2audit::program
