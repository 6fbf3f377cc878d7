// program/model (private): the Program's state and the stages that fill it, in build order:
// symbols -> types -> call graph -> entry points -> roles -> gates -> variants -> guards -> lock-in -> wrappers.
#pragma once
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "program/symbols.hpp"

namespace tr2audit::program {

class PassedOptions;

/// A call-graph edge target with how the caller reaches it. Fields are ordered by size (one edge per call
/// site that resolves: hundreds of thousands on a large repo), and the static_assert keeps it at 48 bytes.
struct Edge {
  FunctionId target;
  ClassId klass;                  ///< the constructed class when constructs
  std::int32_t branch = -1;       ///< the call site's innermost branch (FileFacts::branches)
  std::int32_t call = -1;         ///< the CallFact (FileFacts::calls) of the edge; -1 for a function passed as a value
  RoleSet reached_as;             ///< the roles the target takes through this edge (set by propagate_roles)
  std::uint16_t guards = 0;       ///< the call site's own guards (facts::Context::guards)
  bool constructs = false;        ///< the call constructs a repo class (target is its __init__, or -1 index when none)
  bool in_training_loop = false;  ///< the call sits inside a loop that runs backward()
  bool periodic = false;          ///< the call runs every N steps (`if step % eval_every == 0:`)
  bool in_engine = false;         ///< handed by name to a serving engine (vLLM): runs as inference
  bool dispatch = false;          ///< one of several classes a value may hold (a registry, a typed attribute with
                                  ///< several classes) or a method linked by name: may run, not certain
  bool by_name = false;           ///< the call names its target (`f(x)`, `mod.f(x)`, `self.helper(x)`, `Fn.apply(x)`),
                                  ///< rather than running a submodule's forward or constructing a class
  bool patches = false;           ///< `LlamaAttention.forward = forward`: the target replaces a library method
  bool deferred = false;  ///< `Owner.Config(...)`: the class is built later, by the config's build(), not by this call
  bool name_linked = false;  ///< a method of a receiver of unknown type, linked only by its name (`x.teardown()`)
  bool handed_over = false;  ///< constructs an object handed to a `partial(F, ...)`: F runs its __call__, not this
                             ///< function (call_graph's hand_over_instance)
  bool remote =
      false;  ///< a Ray handle's `method.remote(...)`: the target runs in its actor's process, not the caller's
  /// The role the target runs in, whatever its caller's: under a CLI subcommand's branch (`elif command == "chat":`),
  /// or a Lightning hook the Trainer calls (`train_dataloader` as data, `setup` as setup).
  std::optional<Role> fixed_role;
};
static_assert(sizeof(Edge) <= 48, "Edge is stored per resolved call site: keep it compact");

/// Per-function lock-in: set when the function runs GPU-only code unguarded, itself or through a callee.
struct LockinState {
  bool lockin = false;
  bool has_next = false;
  FunctionId next;         ///< the callee it reaches the kernel through (when has_next)
  std::uint32_t seed = 0;  ///< for a function whose own body runs the kernel: what it runs ("flash_attn_2_cuda.fwd"),
                           ///< an index into Impl::lockin_seeds (0: none; a string per function was mostly empty)
  bool library = false;    ///< the seed is a call into a CUDA-only library, not a kernel, op or extension
};

/// Repo classes (and registered functions) a registry holds: `@ROI_HEADS_REGISTRY.register()` on a class.
struct Registry {
  std::vector<ClassId> classes;
  std::vector<FunctionId> functions;  ///< registered builder functions (`@BACKBONE_REGISTRY.register()` on a def)
  /// The name each entry is registered under, parallel to `classes` and `functions` ("" when unnamed):
  /// `@KernelPlugin("liger_kernel").register()`, `@MODELS.register("gpt2")`.
  std::vector<std::string> class_keys;
  std::vector<std::string> function_keys;
  /// Entries registered through an instance of the registry class (`@Family("key").register()`), so that
  /// `Family(name)(...)` and `Family(name).method(...)` dispatch to them.
  bool by_instance = false;
};

/// Which repo classes values hold (program/types), so that calls through attributes and locals of
/// unknown static type reach the right methods. Every set is capped at k_max_value_classes.
struct Types {
  std::unordered_map<std::string, Registry> registries;  ///< by the registry's name ("ROI_HEADS_REGISTRY")
  /// (file, class index, attribute) -> classes `self.<attribute>` holds (constructor parameters, builders).
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, std::vector<ClassId>> attributes;
  /// (file, function, local name) -> classes a local bound to a call holds (`model = build_model(cfg)`).
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, std::vector<ClassId>> locals;
  std::vector<std::vector<std::vector<ClassId>>> returns;  ///< per file, per function: classes it returns
  /// (file, function, parameter) -> repo classes a constructor parameter receives as classes, not instances:
  /// at the constructor's call sites (`PipelineBlock(module_builder=DecoderLayer)`) or as its default
  /// (`def __init__(self, block_fn=Block)`).
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, std::vector<ClassId>> class_parameters;
  /// (file, class index, attribute) -> repo classes `self.<attribute>` holds as classes
  /// (`self.module_builder = module_builder`, `self.block_class = Block`).
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, std::vector<ClassId>> class_attributes;
  /// Config section -> repo classes its `_target_`s name, for `hydra.utils.instantiate(cfg.<section>)`: a config
  /// group's files (`configs/model/mnist.yaml` for "model": its top-level `_target_` and the nested ones Hydra
  /// builds with it, `net._target_`) and keyed entries anywhere (`model._target_`, `model.net._target_`).
  std::unordered_map<std::string, std::vector<ClassId>> config_targets;
};
inline constexpr std::size_t k_max_value_classes = 16;
/// Base-class chains followed through repo bases (program/types, program/call_graph).
inline constexpr int k_max_base_hops = 16;

/// A repo class Ray runs as an actor (program/ray_actors).
struct RayActor {
  ClassId klass;
  bool gpu = false;  ///< asks Ray for a GPU share (`num_gpus=` other than 0)
};

/// The options of a file's opt-in branches: one in ten branches has one, so a string per branch would mostly be
/// empty (a few megabytes on a large repo).
struct BranchOptions {
  std::vector<std::pair<std::int32_t, std::string>> entries;  ///< (branch, option), sorted by branch

  /// The option branch `branch` needs, or "".
  const std::string& at(std::int32_t branch) const {
    static const std::string none;
    const auto it = std::lower_bound(entries.begin(), entries.end(), branch,
                                     [](const auto& entry, std::int32_t b) { return entry.first < b; });
    return it != entries.end() && it->first == branch ? it->second : none;
  }
};

/// Per-function state.
struct FunctionState {
  RoleSet roles;
  FunctionId via;  ///< the caller that first reached it (index -2 = none)
  bool has_via = false;
  bool entry = false;               ///< an entry point (reached with no caller)
  bool training_reached = false;    ///< a training entry point reaches it (not a library default, not tests only)
  bool called_in_training = false;  ///< called (not constructed) from training-forward or training-step code
  bool repeats = false;  ///< may run more than once per run: step/forward/eval/data code, or reached through a loop
  std::vector<std::uint32_t> entries;  ///< indices into Impl::entries of the training entry points that reach it
};

struct Program::Impl {
  std::vector<facts::FileFacts> files;
  /// Who calls each function, and what a call passes (program/passed_options, index_call_sites): read by the
  /// option passes and, at match time, by Program::always_passed.
  std::shared_ptr<const PassedOptions> call_sites;
  unsigned jobs = 1;                 ///< worker threads for the per-file passes (the model never depends on it)
  std::vector<PassTime> pass_times;  ///< build()'s passes and their wall times (`--stats`)
  std::unique_ptr<Symbols> symbols;
  std::vector<RayActor> ray_actors;  ///< sorted by class
  /// Module-level functions decorated `@ray.remote` (or `@ray.remote(num_cpus=...)`) that ask for no GPU: a task
  /// such as verl's `main_task(config)`, the controller of an RL run, runs in a process without one.
  std::vector<FunctionId> cpu_remote_functions;
  /// Per file, sorted: indices into FileFacts::patterns that the repository refutes (find_index_parameters).
  std::vector<std::vector<std::uint32_t>> refuted_patterns;
  /// Per file, sorted: `.item()` calls on `**kwargs` values that every caller passes as Python numbers
  /// (find_scalar_only_reads).
  std::vector<std::vector<std::uint32_t>> scalar_reads;
  /// Per file, per slot: code that runs only inside Ray actors that ask for no GPU (find_cpu_actor_code).
  std::vector<std::vector<char>> cpu_actor_code;
  /// Per file: its `__main__` block is a self-test (find_main_block_self_tests in program/entry_reach).
  std::vector<char> main_block_self_test;
  /// Per file, per loop (FileFacts::loops): the loop runs a training step through a call of a repo function that
  /// runs one (`for batch in self.loader: self.distill_batch(batch)`): k_step_in_body in its own body,
  /// k_step_nested in a nested loop only, else 0 (program/step_loops). Empty for a file with none, and until that
  /// pass runs; LoopInfo::calls_backward holds the loops that call backward themselves.
  std::vector<std::vector<char>> step_loops;
  Types types;
  /// Per file: one entry per function plus the module body at the end (index functions.size()).
  std::vector<std::vector<std::vector<Edge>>> edges;
  std::vector<std::vector<FunctionState>> state;
  std::vector<EntryPoint> entries;
  /// A training entry lies outside evaluation places and tests (find_entry_points): evaluation jobs and the
  /// library forwards of evaluation folders are then inference.
  bool trains_outside_evaluation = false;
  std::vector<std::uint64_t> entry_lines;  ///< per entry: lines it reaches (training entries only)
  /// Per file, per branch: extra guard bits; and the option an opt-in branch needs, for the branches that have one.
  std::vector<std::vector<std::uint16_t>> branch_guards;
  std::vector<BranchOptions> branch_option;
  /// Per file, per slot: guards every call site (and import site, for module bodies) of the function
  /// sits under, and the option named by the first opt-in one: a callee inherits its callers' gate.
  std::vector<std::vector<std::uint16_t>> inherited_guards;
  std::vector<std::vector<std::string>> inherited_option;
  /// Names of repo predicates that answer "is CUDA here?" (program/gates).
  std::unordered_set<std::string> cuda_probes;
  /// Per file: a gate on the whole module (a registered executor no default selects) and its option.
  std::vector<std::uint16_t> module_gate;
  std::vector<std::string> module_gate_option;
  /// Per file, per function: a gate on the function's own body (a registered or config-named variant no
  /// shipped config selects, program/variants) and its option.
  std::vector<std::vector<std::uint16_t>> function_gate;
  std::vector<std::vector<std::string>> function_gate_option;
  /// Per file, per function: a method of a class (or a function) a shipped config selects by name: the
  /// config's call of it is a call site the call graph cannot see, so it inherits no caller's gate.
  std::vector<std::vector<bool>> config_selected;
  /// Per file, per function: dead code and why (program/variants): a module-level private helper (or code
  /// nested in one) that no non-test code calls, passes or names; a shadowed definition; a kernel only
  /// dead code launches.
  std::vector<std::vector<DeadCode>> dead_function;
  /// Per file: 0, or why the whole module is dead, as a DeadCode: a patch module beside a training script that
  /// nothing imports or names (unimported_module), or a module only tests import (test_only_module).
  std::vector<DeadCode> dead_module;
  /// Names of functions the repo's non-test code hands on as values where no call edge shows: private helpers
  /// passed by name (`prune_configs_by={"early_config_prune": _prune}`) and dispatch-table entries.
  std::unordered_set<std::string> named_as_value;
  /// Per file: the values of dispatch-table entries no config selects that are not a plain name (a
  /// lambda), with the option that would ("config selects ring_flash_triton"): calls inside them run only
  /// then (program/variants; program/inherit gates their call sites).
  std::vector<std::vector<std::pair<Span, std::string>>> dispatch_gates;
  /// Per file: (importing file, import index) of each import of that module from another non-test file of
  /// the repo (index_local_imports).
  std::vector<std::vector<std::pair<FileId, std::size_t>>> imported_by;
  /// Per file: the non-test files that load it by a star import (`from .settings import *`), which
  /// imported_by leaves out (star imports have no local origin; program/gates).
  std::vector<std::vector<FileId>> star_imported_by;
  /// Ops the repo defines in Python, `@torch.library.custom_op("ns::op")` (or `triton_op`), by
  /// "ns.op" as `torch.ops.ns.op(...)` names them: a call of the repo's own function (program/call_graph).
  struct PythonOp {
    FunctionId function;
    bool cuda_only = false;  ///< `device_types="cuda"`: the op has a CUDA implementation only
  };
  std::unordered_map<std::string, PythonOp> python_ops;
  bool single_file = false;
  /// Per file: a standalone script or notebook that does not train (Program::script_without_training).
  std::vector<bool> script_without_training;
  /// Per file: a manifest whose project holds no training code (Program::project_without_training).
  std::vector<bool> project_without_training;
  /// Per file: Python code or a notebook in the folder of such a manifest (a standalone app beside the training code).
  std::vector<bool> in_project_without_training;
  /// Per file: inside a vendored project (Program::vendored; vendored.cpp).
  std::vector<bool> vendored;
  /// Per file, sorted: the lines (first, last) of statements that build only a generation demo's input
  /// (Program::generation_input; generation_inputs.cpp).
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> generation_inputs;
  LockinKnowledge lockin_knowledge;
  std::vector<std::vector<LockinState>> lockin;          ///< per file, per slot
  std::vector<std::string> lockin_seeds{std::string()};  ///< LockinState::seed's texts; [0] is none
  std::vector<std::vector<facts::PatternFact>> derived;  ///< per file: Program::patterns
  /// Per file: the functions that wrap a followed op and what each returns ("nonzero_tuple → x.nonzero()").
  std::vector<std::vector<std::pair<std::int32_t, std::string>>> wrappers;  ///< (function, chain), by function
  bool neuron_stack = false;
  bool loads_compiled_code = false;  ///< some Python builds or loads compiled (CUDA/C++) code (compiled_code.cpp)
  /// Option name -> every default the repo gives it (class fields, __init__ parameters, argparse flags).
  std::unordered_map<std::string, std::vector<facts::Argument>> option_defaults;
  /// Option name -> the defaults of the command-line flags of that name only (`parser.add_argument("--dtype",
  /// default="bfloat16")`), for `args.dtype`: a class's `dtype=torch.float16` parameter is another option.
  std::unordered_map<std::string, std::vector<facts::Argument>> cli_defaults;

  std::size_t slot(FunctionId id) const {
    return id.index < 0 ? files[id.file.value].functions.size() : static_cast<std::size_t>(id.index);
  }
  FunctionState& at(FunctionId id) { return state[id.file.value][slot(id)]; }
  const FunctionState& at(FunctionId id) const { return state[id.file.value][slot(id)]; }
};

/// Fills Impl::call_sites from the call graph (program/passed_options).
void index_call_sites(Program::Impl& impl);
/// Registries, what functions return, and which classes attributes and locals hold (types.cpp).
void infer_types(Program::Impl& impl);
/// The repo classes a call builds through a class held as a value: `self.module_builder(**kwargs)` or
/// `block_fn(dim)` on a constructor parameter (Types::class_attributes, Types::class_parameters), or named by
/// the config section `hydra.utils.instantiate(cfg.model)` builds (Types::config_targets).
std::vector<ClassId> classes_built_from_values(const Program::Impl& impl, FileId file, const facts::CallFact& call);
/// Repo classes decorated `@ray.remote` or wrapped by `ray.remote(...)(Cls)` (program/ray_actors).
void find_ray_actors(Program::Impl& impl);
/// Functions that run only inside GPU-less Ray actors: their methods (and those of abstract bases only
/// such actors subclass), and what only such code calls (program/ray_actors).
void find_cpu_actor_code(Program::Impl& impl);
/// The Ray actor class a `Actor.remote(...)` / `Actor.options(...).remote(...)` call creates.
std::optional<ClassId> actor_created(const Program::Impl& impl, FileId file, const facts::CallFact& call);
/// The methods named `name` the repo's Ray actors have (their own or inherited), each once; the actors of
/// test files only for a call from a test.
std::vector<FunctionId> actor_methods(const Program::Impl& impl, std::string_view name, bool from_test);
/// The registry a receiver names ("ROI_HEADS_REGISTRY" in `ROI_HEADS_REGISTRY.get(name)`), or null.
const Registry* registry_named(const Program::Impl& impl, std::string_view receiver);
/// `torch.ops.ns.op(...)` (or `torch.ops.ns.op.default(...)`) of an op in Impl::python_ops: the op.
const Program::Impl::PythonOp* python_op_called(const Program::Impl& impl, std::string_view callee);
/// ... of such an op that runs on any device (no `device_types="cuda"`): the repo's own portable code.
bool portable_python_op_called(const Program::Impl& impl, std::string_view callee);
/// Fills Impl::python_ops from the decorators (program/custom_ops).
void index_python_ops(Program::Impl& impl);
/// `op.register_autograd(backward, setup_context=setup)`: the op and the repo functions it registers.
struct AutogradRegistration {
  FunctionId op;
  std::vector<FunctionId> functions;
};
std::optional<AutogradRegistration> autograd_registration(const Program::Impl& impl, FileId file,
                                                          const facts::CallFact& call);
/// A call that registers an op's backward or fake implementation (running neither).
bool registers_op_function(const facts::CallFact& call);
/// `KernelPlugin(name)` / `QuantizationPlugin("bnb")`: an instance of a registry class that registers
/// entries by instance (`Registry::by_instance`), and the entry's name when it is a string literal.
struct RegistryLookup {
  const Registry* registry = nullptr;
  std::string key;  ///< "" when the name is computed: every entry may run
};
RegistryLookup registry_instance(const Program::Impl& impl, std::string_view text);
/// Classes an attribute `self.<name>` of a class (or of its repo bases) holds.
std::vector<ClassId> attribute_classes(const Program::Impl& impl, ClassId klass, const std::string& name);
void build_call_graph(Program::Impl& impl);
inline constexpr char k_step_nested = 1;
inline constexpr char k_step_in_body = 2;
/// Fills Impl::step_loops and refreshes the loop flags of the call edges in their files (program/step_loops).
void find_step_loops(Program::Impl& impl);
/// A generator function (`def cycle(length): while True: yield torch.randint(...).cuda(), ...`) whose generator a
/// training loop consumes (`train_dl = cycle(n)`, then `next(train_dl)` every step): its body runs per step as the
/// run's data pipeline, whatever role the once-only call that built it has (program/step_loops; after roles).
void mark_consumed_generators(Program::Impl& impl);
/// The loop runs a training step: it calls backward (or an optimizer step) in its body, or a repo function that
/// runs one (Impl::step_loops).
bool trains_in_loop(const Program::Impl& impl, FileId file, std::int32_t loop);
/// The loop's own body (not only a nested loop) calls a repo function that runs a training step.
bool steps_in_body(const Program::Impl& impl, FileId file, std::int32_t loop);
/// The context sits inside a loop that runs a training step.
bool in_training_loop(const Program::Impl& impl, FileId file, const facts::Context& ctx);
/// The function (not the module body) has a loop of its own that runs a training step: it drives the training.
bool drives_training_loop(const Program::Impl& impl, FileId file, std::int32_t function);
/// The function's own loop calls (certainly) a function that drives the training loop: `for epoch in ...:
/// train_epoch(...)` in a `train()` that builds the model and the engine first (program/step_loops).
bool drives_epoch_loop(const Program::Impl& impl, FileId file, std::int32_t function);
/// Per file, per function: some call-graph edge reaches it, or the repo's own code names it (a method call by a name no
/// optimizer or runner shares, a value or dispatch-table name, a string a config assigns) (program/step_loops).
std::vector<std::vector<char>> reached_or_named(const Program::Impl& impl);
void find_entry_points(Program::Impl& impl);
void propagate_roles(Program::Impl& impl);
/// Per training entry point, the functions it reaches (FunctionState::entries).
void attribute_entries(Program::Impl& impl);
void find_cuda_probes(Program::Impl& impl);
/// The repo module an import of a file loads: its target (`from pkg import mod`, `import pkg.mod`), else
/// its module (`from pkg.mod import name`); none for another origin or the file itself (gates.cpp).
std::optional<FileId> import_target(const Program::Impl& impl, FileId file, std::size_t import_index);
/// Per file: every non-test file that imports it (through package `__init__`s) runs a model without training
/// it (an inference, export or tooling role, or `.eval()`, `torch.no_grad()`, `torch.inference_mode()` or
/// `.generate(...)` and no backward), or is such a module itself, and there is at least one
/// (program/inference_users).
std::vector<bool> inference_only_modules(const Program::Impl& impl);
/// The repo module a star import (`from .settings import *`) loads: star imports have no local origin, so that the
/// names they bind resolve nowhere, but the module they load runs (gates.cpp).
std::optional<FileId> star_import_target(const Program::Impl& impl, FileId file, std::size_t import_index);
/// Impl::main_block_self_test: the module is imported by the repo's non-test code, trains nowhere itself (no training
/// or setup entry point in it) and no shell script launches it, so its `__main__` block (`x = torch.rand(...).cuda()`
/// beside a quantizer) runs only when someone checks the module by hand (program/entry_reach).
void find_main_block_self_tests(Program::Impl& impl);
/// Fills Impl::imported_by from the non-test files' imports of the repo's own modules (gates.cpp).
void index_local_imports(Program::Impl& impl);
/// Per class (file, index): its repo subclasses, through each class's repo bases (call_graph.cpp).
using SubclassIndex = std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<ClassId>>;
SubclassIndex index_subclasses(const Program::Impl& impl);
/// "ROI_HEADS_REGISTRY" for "detectron2.ROI_HEADS_REGISTRY.get(x)": the last name before any call (gates.cpp).
std::string last_name(std::string_view dotted);
void find_registered_executors(Program::Impl& impl);
/// Registered classes and config-named components that no shipped config or running code selects:
/// their functions get the opt-in gate in Impl::function_gate (variants.cpp).
void find_unselected_variants(Program::Impl& impl);
/// Marks Impl::dead_module: a patch module beside a training script that no repo file imports and no string of
/// `strings` (the repo's name strings and config values) names (program/dead_modules, from program/variants).
void mark_dead_patch_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings);
/// Marks modules only tests import (program/dead_modules).
void mark_test_only_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings);
/// Marks modules a package's `__init__` leaves out of the siblings it imports, that nothing imports or names
/// (program/dead_modules, DeadCode::unexported_module).
void mark_unexported_modules(Program::Impl& impl, const std::unordered_set<std::string>& strings);
/// "llava/" for "llava/model/coat/fp8_adamw.py" ("src/" layouts: "src/pkg/"); "" for a file at the top
/// (program/dead_modules).
std::string_view top_folder(std::string_view path);
/// The top-level folders holding a training entry point outside tests: an application's packages, whose code
/// runs only as far as the repo uses it (program/dead_modules).
std::unordered_set<std::string_view> training_root_folders(const Program::Impl& impl);
/// A file laid out like a library's own, which a setup script copies over the installed library's file: it runs as
/// part of that library, not through repo imports (program/dead_modules).
bool mirrors_library(const facts::FileFacts& file);
/// The top-level folders that are an application's packages rather than a library's: their public classes are
/// the repo's to build, not its users' (program/application_classes).
std::unordered_set<std::string_view> application_packages(const Program::Impl& impl);
/// A module-level decorator registers or wraps the class (program/application_classes).
bool registered_or_wrapped(const facts::FileFacts& file, std::string_view klass);
/// The repo finds classes by reflection, not by name (program/application_classes).
bool finds_classes_by_reflection(const Program::Impl& impl);
/// Per file: the repo may fetch the module's classes by a computed name (program/application_classes).
std::vector<char> modules_read_by_name(const Program::Impl& impl, const std::unordered_set<std::string>& strings);
/// The literal module prefixes of the repo's imports by computed name (program/dead_modules).
std::vector<std::string> computed_import_prefixes(const Program::Impl& impl);
/// The repo's code (not its tests) imports modules by a computed name (program/named_modules).
bool loads_modules_by_name(const Program::Impl& impl);
/// `importlib.import_module(target)` / `__import__(name)` with a name that is no string literal (named_modules.cpp).
bool computed_import_call(const facts::CallFact& call);
/// Modules of the repo's packages that nothing imports, in a repo that imports by a computed name, and
/// that no string names: their top level and functions get the opt-in gate (named_modules.cpp).
void gate_modules_loaded_by_name(Program::Impl& impl);
/// The role of the innermost CLI subcommand branch around `branch` (`elif command == "chat":` is
/// inference), or none (program/roles).
std::optional<Role> command_branch_role(const facts::FileFacts& file, std::int32_t branch);
/// A notebook, or Python with a `__main__` block or Modal entry functions (Program::runs_as_program).
bool runs_as_program(const facts::FileFacts& file);
/// `def test_correctness():` or a bare `def test():` at a module's top level (or code nested in one): a
/// test kept beside library code, whatever it runs (program.cpp).
bool is_test_helper(const facts::FileFacts& file, std::int32_t function);
/// Fills Impl::script_without_training and Impl::project_without_training (without_training.cpp), after roles
/// and entry points.
void find_scripts_without_training(Program::Impl& impl);
/// Fills Impl::generation_inputs (generation_inputs.cpp).
void find_generation_inputs(Program::Impl& impl);
/// Fills Impl::refuted_patterns (index_parameters.cpp): a `boolean-mask-index` read through a parameter
/// named like a mask (`output[mask_train]`) to which every call site passes an index tensor (`idx_train`).
void find_index_parameters(Program::Impl& impl);
/// Fills Impl::scalar_reads (scalar_arguments.cpp): a metrics logger's `v.item()` over `**kwargs` values that
/// every call site passes as numbers (`metric_logger.update(loss=loss_value)`).
void find_scalar_only_reads(Program::Impl& impl);
/// Fills Impl::vendored: files under a folder with its own setup.py/pyproject.toml/setup.cfg/requirements inside a
/// `third_party/`, `dependencies/`, `vendor/`, ... folder (vendored.cpp). Runs before the entry points.
void find_vendored_projects(Program::Impl& impl);
void compute_branch_guards(Program::Impl& impl);
void inherit_guards(Program::Impl& impl);
void propagate_lockin(Program::Impl& impl);
/// `nki-kernel-call` patterns: calls of repo functions decorated as NKI kernels (nki_calls.cpp).
void find_nki_kernel_calls(Program::Impl& impl);
/// Repo wrappers of ops that rules follow (`wrappers: true`) and a `wrapped-op-call` pattern at each
/// call of one from code that is not itself a wrapper (wrappers.cpp).
void find_op_wrappers(Program::Impl& impl);

/// "from → to → … → kernel" for a call of lock-in function `to` from `from`.
std::string lockin_chain(const Program::Impl& impl, FunctionId from, FunctionId to);
/// True when some Python file of the repo builds or loads compiled code: torch.utils.cpp_extension,
/// CuPy/PyCUDA/Numba CUDA, torch.ops.load_library / ctypes, or an import of a compiled extension module.
bool find_compiled_code_loader(const Program::Impl& impl);
/// A `.cu` file that Python names only in builds/loads inside a try whose except falls back (`load(...,
/// sources=[... .cu])` under `except Exception: fbd_cuda = None`) runs behind that fallback: its module slot
/// gets the `import-error-fallback` guard (compiled_code.cpp).
void guard_fallback_sources(Program::Impl& impl);
/// A CUDA source's module slot takes the roles of the code that calls into the extension built from it; a
/// `.cu` file no build names, where the builds name their sources, is DeadCode::unbuilt_source
/// (compiled_sources.cpp). After lock-in (it reads the extension calls) and the dead-module marks.
void link_compiled_sources(Program::Impl& impl);
/// The guards on code at a context, its own and inherited from its callers and its module (Program::guards_at).
std::uint16_t guards_at(const Program::Impl& impl, FileId file, const facts::Context& ctx);
/// The off-by-default option that gates code at a context, or "" (Program::opt_in_option).
std::string opt_in_option(const Program::Impl& impl, FileId file, const facts::Context& ctx);
/// Fills option_defaults (defaults.cpp).
void collect_option_defaults(Program::Impl& impl);

/// The non-training role a path convention suggests (`inference/`, `_export/`, `tools/`), a tie-breaker only.
std::optional<Role> role_by_path(std::string_view path);
/// `dinov2/eval/linear.py`, `evaluation/knn.py`, `eval_linear.py`: a file an evaluation folder or name holds.
bool in_evaluation_place(std::string_view path);

/// The name a method call's receiver builds its object by: "TrainLoop" for `TrainLoop(model=model).run_loop()`
/// (resolved, CallFact::receiver_callee, when imported; else a plain name as written, one the file defines), or ""
/// when the receiver is no call of a name (program/call_graph_support).
std::string receiver_builder(const facts::CallFact& call);

/// A call in an epoch loop but outside the step loop nested in it runs once per epoch, not per step.
bool once_per_epoch(const Program::Impl& impl, FileId file, const facts::Context& ctx);

/// The `trainer.train()` / `trainer.fit(...)` call through which a function runs training (line 0: none).
Span trainer_run(const facts::FileFacts& file, std::int32_t function);
/// True when `line` is known and lies outside a trainer run that exists: code that runs once around it.
bool outside_trainer_run(const Span& run, std::uint32_t line);

/// The function a context's code belongs to for roles: its innermost function, or the module body.
FunctionId function_at(FileId file, const facts::Context& ctx);

}  // namespace tr2audit::program
