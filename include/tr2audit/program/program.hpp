// program: the repository model, built once per scan between facts and rules. It reads every file's
// facts (which stay immutable) and owns everything that depends on the whole repo: the symbol table of
// the repo's own modules, classes and functions; import origins; the call graph; training, inference,
// export and tooling entry points; every function's roles and the chain that reaches it; and the guards
// that only the whole repo can tell (availability flags defined in another module, options that are off
// by default). Rules and scoring read facts *through* it, by typed ids.
#pragma once
#include <bitset>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::program {

/// A file of the scan: its index in the facts vector the program was built from.
struct FileId {
  std::uint32_t value = 0;
  friend bool operator==(FileId, FileId) = default;
};

/// A function of the repo; `index` -1 is the file's module body (top-level statements).
struct FunctionId {
  FileId file;
  std::int32_t index = -1;
  friend bool operator==(FunctionId, FunctionId) = default;
};

/// What a function does in a run. A function can have several (a forward used in training and in
/// generation). Roles are computed from entry points along the call graph, never from a path alone.
enum class Role : std::uint8_t {
  training_forward,  ///< a module's forward (and what it calls) in a training run
  training_step,     ///< the training loop and step: loss, backward, optimizer step, and helpers they call
  training_eval,     ///< evaluation called from the training loop
  data,              ///< datasets, collators, samplers, tokenisation feeding training
  setup,             ///< construction and configuration of a training run (model __init__, argument parsing)
  inference,         ///< generation, sampling, serving, chat and demo apps
  export_,           ///< ONNX / torch.export / TorchScript / checkpoint conversion
  tooling,           ///< benchmarks, profiling, visualisation, docs
  test,              ///< test files
};
inline constexpr std::size_t k_role_count = 9;
static_assert(static_cast<std::size_t>(Role::test) + 1 == k_role_count, "k_role_count must match Role");
using RoleSet = std::bitset<k_role_count>;

/// Why code never runs, though the file holding it does (Program::dead_code).
enum class DeadCode : std::uint8_t {
  live,
  unused_private_helper,   ///< a module-level `_helper` (or a `_method` of a class below only repo classes and
                           ///< nn.Module) no non-test code calls, passes or names
  unused_class,            ///< a public class of a package that trains, that no repo code outside tests builds,
                           ///< subclasses, imports or names, and no string or config value names
  shadowed,                ///< a later definition of the same name in the same scope replaces it
  unreferenced_nested,     ///< a nested function its enclosing function never calls, passes or names
  used_only_by_dead_code,  ///< a kernel whose only launches and mentions outside tests are in dead code
  unused_actor_method,     ///< a Ray actor's method whose name no code outside tests uses (handles only call)
  unimported_module,       ///< a patch module beside a training script that no repo code imports or names
  test_only_module,        ///< a module only tests import: its code runs only in them
  unbuilt_source,          ///< a CUDA source no build of the repo compiles (the builds name their sources; not this)
  unexported_module,       ///< a module its package's `__init__` leaves out, that no repo code imports or names
  orphan_model_copy,       ///< a `modeling_*.py` copy of a library model that no repo code imports or names
  unused_module,           ///< a module no repo code imports or names, in a package that trains
  outside_import_closure,  ///< a module only modules that never run import, in a package that trains
};

/// Why code never runs, as a finding's message says it: " (dead code: ...)"; "" for live code.
std::string dead_code_note(DeadCode why);

/// "training-forward", "training-step", "training-eval", "data", "setup", "inference", "export", "tooling", "test".
std::string_view to_string(Role role);
std::optional<Role> parse_role(std::string_view text);
/// Role names in Role order, for loaders, renderers and the schema test.
const std::vector<std::string_view>& role_names();
/// The training roles (forward, step, eval, data, setup).
RoleSet training_roles();
/// The names of the roles in a set, in Role order.
std::vector<std::string> role_names(RoleSet roles);
/// A launch script or config under an evaluation folder (`scripts/eval/mmlu.sh`, `configs/evaluation/`) or
/// named for one (`eval_gsm8k.yaml`, `mcli-1b-eval.yaml`, not `retrieval.yaml`), or under an `inference`
/// folder (`scripts/inference/benchmarking/yamls/7b.yaml`) or named for inference (`deepspeed_inference.yaml`,
/// `zero3-infer.yaml`): it runs a benchmark of a trained model, not a
/// training run (program/entry_points).
bool evaluation_launch_path(std::string_view path);

/// Why a function starts a run of some role.
struct EntryPoint {
  FunctionId function;
  Role role = Role::training_step;
  std::string why;  ///< "calls loss.backward() and optimizer.step()", "Trainer(...).train()", ...
};

/// What the rules know about GPU-only code, handed to the program so that lock-in can be propagated
/// through the repo's own call graph without the program depending on the rules. Either may be empty.
struct LockinKnowledge {
  /// True when a call goes straight into GPU-only code: a CUDA-only library, a custom kernel op, a CUDA build.
  std::function<bool(const facts::CallFact&)> kernel_call;
  /// Of the calls kernel_call accepts, those into a CUDA-only library (`bitsandbytes.functional.dequantize_4bit`,
  /// `flash_attn.flash_attn_func`) rather than a custom kernel, op or extension: a chain to one is reported as
  /// `lock-in-library-call`.
  std::function<bool(const facts::CallFact&)> library_call;
  /// True when a decorator makes the decorated function a GPU kernel (`triton.jit`).
  std::function<bool(const QualifiedName&)> kernel_decorator;
  /// True when an imported module, of that origin, is a prebuilt CUDA extension by its name
  /// (`fused_layer_norm_cuda`, flash-attention's `rotary_emb`): the rules' `extension_modules: true`
  /// import rules. Its calls are extension calls. Repo Python is never asked.
  std::function<bool(const QualifiedName&, facts::ImportOrigin)> extension_module;
  /// True when a call is an op that rules follow through the repo's wrappers (`wrappers: true`:
  /// `x.nonzero()` inside `def nonzero_tuple(x)`); src/program/wrappers.cpp finds the wrappers.
  std::function<bool(const facts::CallFact&)> wrapped_op;
};

/// The pattern kind of a call of a repo wrapper of a followed op (src/program/wrappers.cpp). Its detail is the
/// chain from the wrapper down to the op: "get_cumulative_document_lengths → doc_lens.masked_select()".
inline constexpr std::string_view k_wrapped_op_call = "wrapped-op-call";
inline constexpr std::string_view k_chain_link = " → ";
/// The wrapper whose body holds the op, last of a `wrapped-op-call` chain's functions (its qualified name):
/// "b" in "a → b → x.nonzero()". "" when the chain has no link.
inline std::string_view wrapper_of_chain(std::string_view chain) {
  const auto op = chain.rfind(k_chain_link);
  if (op == std::string_view::npos) return {};
  const auto before = chain.substr(0, op);
  const auto link = before.rfind(k_chain_link);
  return link == std::string_view::npos ? before : before.substr(link + k_chain_link.size());
}

/// Import origin of one import fact, now that every module of the repo is known.
using facts::ImportOrigin;

/// The wall time one pass of Program::build took (`--stats`).
struct PassTime {
  std::string_view pass;  ///< the pass's function name (static storage)
  std::chrono::nanoseconds time{0};
};

class Program {
 public:
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  /// Builds the model over every file of a scan (facts in discovery order). `single_file` judges a
  /// one-file scan as its own training path: with no entry point, its top-level code is the run.
  /// `lockin` says which calls and decorators are GPU-only (src/program/lockin.cpp propagates them).
  /// `jobs` threads run the per-file passes; the model is the same for any number.
  static Program build(std::vector<facts::FileFacts> files, bool single_file = false, LockinKnowledge lockin = {},
                       unsigned jobs = 1);

  const std::vector<facts::FileFacts>& files() const;
  /// Each pass of build() and its wall time, in the order they ran.
  const std::vector<PassTime>& pass_times() const;
  const facts::FileFacts& file(FileId id) const;

  /// Where an import of a file points: an external package, a repo module, or a compiled extension.
  ImportOrigin origin(FileId file, std::size_t import_index) const;
  /// `from m import name` where the file calls `name(...)` and reads no attribute of it: a function or class,
  /// never a module, whatever it is named (`from .random import model_parallel_cuda_manual_seed`).
  bool imports_callable(FileId file, std::size_t import_index) const;
  /// Where a resolved callee lives: under one of the repo's own top-level modules or packages
  /// (`local-source`, also flash_attn.* inside flash-attention) or in a package (`external`).
  ImportOrigin call_origin(const QualifiedName& callee) const;
  /// The library name a repo module re-exports under `dotted` (`dinov2.fsdp.ShardedGradScaler` ->
  /// `torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler`), or "" (Symbols::library_name).
  std::string_view library_name(std::string_view dotted) const;
  /// Roles of a function (index -1: the module body).
  RoleSet roles(FunctionId function) const;
  /// Roles of the code at a context: the innermost enclosing function with roles, else the module body.
  RoleSet roles_at(FileId file, const facts::Context& ctx) const;
  /// The place of the code at a context as rules see it: the roles' region where reachability gives
  /// roles (a `.item()` reached only from generate() is `inference`), else the syntactic region. With
  /// the line, code of a function that trains through `trainer.train()`/`fit()` outside that call is setup.
  facts::Region region_at(FileId file, const facts::Context& ctx, std::uint32_t line = 0) const;
  /// "train.py:main → Trainer.train → compute_loss" for the code at a context; "" when no entry reaches it.
  std::string reached_from(FileId file, const facts::Context& ctx) const;
  /// True when a training entry point reaches the code at a context (its innermost function with roles,
  /// else the module body), as opposed to a library module's own role or tests only.
  bool training_reached(FileId file, const facts::Context& ctx) const;
  /// True when the code at `ctx` runs once per run: in no loop of its function, and its function is
  /// reached only as setup, inference, export or tooling, from no call site in a loop (`mark_repeats`).
  bool runs_once(FileId file, const facts::Context& ctx) const;
  /// True when every call of `function` the repo makes passes its parameter `name` (by keyword or position,
  /// no `**kwargs` splat in its way) and there is one: the parameter's default never runs (minimind's
  /// `init_model(..., device="cuda")` called with `device=args.device` everywhere). False for a function
  /// nothing calls by name (`fire.Fire(train)` builds the command line from the defaults).
  bool always_passed(FileId file, std::int32_t function, std::string_view name) const;
  /// True when the code at `ctx` sits in a loop that runs a training step: one that calls backward or an
  /// optimizer step in its body, or a repo function that runs one (`self.distill_batch(batch)`; program/step_loops).
  bool in_training_loop(FileId file, const facts::Context& ctx) const;
  /// True when the code at `ctx` runs only inside Ray actors that ask for no GPU (`@ray.remote` without
  /// `num_gpus`): no accelerator there, so reading a tensor waits for none and no graph breaks.
  bool runs_without_accelerator(FileId file, const facts::Context& ctx) const;
  /// A notebook, or a script with a `__main__` block that no other repo file imports, in a repo with
  /// training entry points, when the file holds none and no training entry point reaches its code: a
  /// demo, an inference or data-processing script. Code of it that no entry point reaches is off the
  /// training path.
  bool script_without_training(FileId file) const;
  /// The line lies in a top-level statement that builds only a generation demo's input: a name bound to a
  /// call and handed, at the top level, to nothing but `.generate(...)` calls (`model_input = tokenizer(p,
  /// return_tensors="pt").to("cuda")` before `model.generate(**model_input)`).
  bool generation_input(FileId file, std::uint32_t line) const;
  /// The call (an index into the file's CallFacts) runs only repo functions that decode into a fixed buffer:
  /// each allocates its output once (`torch.empty(max_returned_tokens)`) and writes every token into it by
  /// index (`index_copy`), concatenating nothing, so the decode step keeps one shape (a `generate` written
  /// for compiled graphs). False when the call reaches no repo function.
  bool fixed_buffer_decode(FileId file, std::uint32_t call) const;
  /// The repository refutes the file's detector pattern (FileFacts::patterns index): a `boolean-mask-index`
  /// through a mask-named parameter that every call site passes an index tensor (program/index_parameters).
  bool pattern_refuted(FileId file, std::uint32_t pattern) const;
  /// True when a call (FileFacts::calls) is a `v.item()` over `**kwargs` values that every caller of its function
  /// passes as Python numbers: it never reads a tensor.
  bool reads_scalar_only(FileId file, std::uint32_t call) const;
  /// The file runs as a program of its own: a notebook, or Python with a `__main__` block or functions a
  /// runner calls (Modal's `@app.function`, `@app.local_entrypoint`).
  bool runs_as_program(FileId file) const;
  /// A file that declares dependencies (requirements, pyproject, setup.py/cfg, a Dockerfile) in a folder
  /// below the root that holds Python code, none of it training code (no function or module body in the
  /// folder has a training role), in a repo with training entry points: the manifest of a serving,
  /// benchmark or conversion example (`integrations/vllm-fp8/pyproject.toml`), not of the training run.
  bool project_without_training(FileId file) const;
  /// Code (Python or a notebook, not tests) in the folder of such a manifest: a standalone serving or
  /// extraction app beside the training code (llama-cookbook's `structured_parser/` with its requirements).
  bool in_project_without_training(FileId file) const;
  /// True when the file belongs to a vendored project: a folder with its own setup.py, pyproject.toml,
  /// setup.cfg or requirements file under a `third_party/`, `dependencies/`, `vendor/`, `external/`, ... folder. Its
  /// scripts and examples are not the repo's entry points: its code has roles only where the repo's own code reaches
  /// it.
  bool vendored(FileId file) const;
  /// True when a class of the repo defines a method of this name (`DiagonalGaussianDistribution.mode`): a call
  /// of it on a receiver of unknown type is more likely that method than the tensor method of the name.
  bool defines_method(std::string_view name) const;
  /// Whether the code at a context is dead, and why: in a module-level private helper that no non-test
  /// code of the repo calls, passes or names (a `_wip` variant left behind), in a definition a later one of
  /// the same name replaces, or in a kernel that only such code launches. `live` otherwise.
  DeadCode dead_code(FileId file, const facts::Context& ctx) const;
  /// True when the code at a context sits in a function no entry point reaches, in a module none reaches, in a
  /// repo with a training entry point, and nothing shows how it could run: no shipped config selects it, no code
  /// hands it on as a value, and no method of its class is reached (a class built where no edge shows runs its
  /// `__init__` with the methods that are). A plugin, a monkeypatch or a helper a recipe or a user turns on.
  bool unreached(FileId file, const facts::Context& ctx) const;
  /// True when no entry point reaches the code at a context and its file sits in an evaluation place
  /// (`m4/evaluation/`, `evaluation_*.py`) of a repo that trains elsewhere: evaluation code, off the training path.
  bool unreached_evaluation(FileId file, const facts::Context& ctx) const;
  /// Indices into entry_points() of the training entry points that reach the code at a context.
  const std::vector<std::uint32_t>& entries_at(FileId file, const facts::Context& ctx) const;
  /// The context's guards plus those only the repo can tell (availability flags, opt-in options).
  std::uint16_t guards_at(FileId file, const facts::Context& ctx) const;
  /// The option that must be turned on for the code at a context to run ("config.use_fp8"), or "".
  std::string opt_in_option(FileId file, const facts::Context& ctx) const;
  /// Every entry point found, in file order.
  const std::vector<EntryPoint>& entry_points() const;
  /// "train.py:main" for a function id.
  std::string describe(FunctionId function) const;
  /// Lines of code a training entry point reaches: whole files whose top level is reached, else the
  /// outermost reached functions' spans. The size readiness is normalised by.
  std::uint64_t training_lines() const;
  /// Lines of code one training entry point reaches (index into entry_points()).
  std::uint64_t entry_lines(std::size_t entry) const;
  /// True when some training entry point exists.
  bool has_training_entry() const;
  /// True when some Python file builds or loads compiled code (cpp_extension, CuPy, load_library, a
  /// compiled extension import): CUDA sources are then part of the product, not a separate program.
  bool loads_compiled_code() const;
  /// The default of a name used as a value at a context ("self.drop_last", "group_by_length"): the
  /// enclosing functions' parameter default or the file's one module constant for a bare name; for an
  /// attribute, the one default the repo gives that option (config/dataclass field, argparse flag,
  /// __init__ parameter). nullopt when unknown or when the repo gives several.
  std::optional<facts::Argument> default_of(FileId file, const facts::Context& ctx, std::string_view name) const;
  /// The values a bare name can take at a context when it is a parameter of an enclosing function typed
  /// `Literal["auto", "ddp", "fsdp"]` (or `Literal[...] | None`); nullopt when its type does not list them.
  std::optional<std::vector<std::string>> choices_of(FileId file, const facts::Context& ctx,
                                                     std::string_view name) const;
  /// The value a bare local name holds at a context when its function (at module level, the module's body)
  /// assigns it once, to a literal or a conditional with a literal side (`backend = "nccl" if has_gpu else
  /// "gloo"`); nullopt otherwise.
  std::optional<facts::Argument> local_value_of(FileId file, const facts::Context& ctx, std::string_view name) const;

  /// Facts only the whole repo can tell, as patterns of one file: `extension-call` (a call through a
  /// compiled extension's handle) and `lock-in-call` / `lock-in-library-call` (a call of repo code that runs GPU-only
  /// code unguarded, with the chain in `detail`). Matched by `pattern:` rules like detector patterns.
  const std::vector<facts::PatternFact>& patterns(FileId file) const;
  /// True when the function runs GPU-only code unguarded (itself or through the repo functions it calls).
  bool is_lockin(FunctionId function) const;
  /// "Block.forward → ops.fused_norm → torch.ops.mylib.fused_norm" from a lock-in function to its kernel.
  std::string lockin_chain(FunctionId function) const;
  /// What the program learnt about a file's values, for `debug facts`: registries its classes join
  /// ("ROI_HEADS_REGISTRY.register: StandardROIHeads"), the classes an attribute holds
  /// ("StandardROIHeads.box_predictor: FastRCNNOutputLayers"), wrappers ("nonzero_tuple wraps x.nonzero()").
  std::vector<std::string> type_notes(FileId file) const;
  /// True when the repo trains with a Neuron stack (imports optimum.neuron, neuronx_distributed,
  /// torch_neuronx or NKI outside tests, or is one of those packages).
  bool neuron_stack() const;

  /// The FileId of a path (nullopt when not scanned).
  std::optional<FileId> find_file(std::string_view path) const;

  struct Impl;  ///< the model's state (src/program/model.hpp), filled by the build stages

 private:
  friend class CodeRoles;
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

/// What is left of a program once the rules have matched: every file's facts and every function's
/// roles, and nothing else (the symbol tables, call graph, guards and lock-in the rules needed are
/// freed). The pilot request reads only these, and is built after the larger tables are gone.
class CodeRoles {
 public:
  /// Takes the facts and the roles out of a program and frees the rest of it.
  explicit CodeRoles(Program&& program);

  const std::vector<facts::FileFacts>& files() const { return m_files; }
  const facts::FileFacts& file(FileId id) const { return m_files[id.value]; }
  /// As Program::roles and Program::roles_at.
  RoleSet roles(FunctionId function) const;
  RoleSet roles_at(FileId file, const facts::Context& ctx) const;
  /// As Program::find_file.
  std::optional<FileId> find_file(std::string_view path) const;

 private:
  std::vector<facts::FileFacts> m_files;
  std::vector<std::vector<RoleSet>> m_roles;  ///< per file: one per function, then the module body
};

/// The program as one file's facts see it: what rules and scoring are handed per file.
struct FileView {
  const Program& program;
  FileId id;
  const facts::FileFacts& facts() const { return program.file(id); }
};

}  // namespace tr2audit::program
