// facts: the typed, tree-free description of one file that rules match against. Produced by
// facts::extract (parse tree -> FileFacts) and by facts::extract_dependencies for manifest files.
// Every fact's strings live in its file's StringPool (FileFacts::strings), not in the syntax tree, so
// the tree is freed right after extraction.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/box.hpp"
#include "tr2audit/core/compact_array.hpp"
#include "tr2audit/core/fact_string.hpp"
#include "tr2audit/core/location.hpp"
#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/discover/source_file.hpp"

namespace tr2audit::facts {

/// Guards that enclose a fact (a bit set in Context::guards).
enum class Guard : std::uint16_t {
  cuda_available = 1u << 0,         ///< if torch.cuda.is_available(): / ... if cuda_ok else ... / its else branch too
  import_error_fallback = 1u << 1,  ///< try: <here> except ImportError / if is_<lib>_available(): <here>, not else
  device_branch = 1u << 2,          ///< if device == "cuda" / device.type == "cuda" / args.device ...
  neuron_branch = 1u << 3,          ///< if on XLA/Neuron (is_torch_xla_available(), "xla" in device, ...)
  main_block = 1u << 4,             ///< if __name__ == "__main__":
  type_checking = 1u << 5,          ///< if TYPE_CHECKING:
  no_grad = 1u << 6,                ///< with torch.no_grad() / torch.inference_mode() / @torch.no_grad()
  except_handler = 1u << 7,         ///< inside an except clause
  periodic = 1u << 8,               ///< if step % log_every == 0: (periodic logging / checkpointing)
  step_closure = 1u << 9,           ///< inside a lambda/function passed to xm.add_step_closure
  opt_in = 1u << 10,         ///< under an option that is off by default (set by the program stage, never by facts)
  not_training = 1u << 11,   ///< runs only outside training: `if not self.training:`, after `if self.training: return`,
                             ///< under a KV-cache (decoding) branch
  message_only = 1u << 12,   ///< in the condition of an `if` (no else) whose body only prints, logs or warns:
                             ///< `if torch.cuda.is_bf16_supported(): print("try --bf16")` picks a message, not a path
  error_message = 1u << 13,  ///< inside a `raise` statement: builds the error that ends the run
                             ///< (`raise RuntimeError(f"non-finite loss {loss.item()}")`)
  failure_path = 1u << 14,   ///< in an except clause that recovers from a runtime or numerical failure
                             ///< (`except RuntimeError:`, `except torch.linalg.LinAlgError:`): a rare retry
  non_finite = 1u << 15,     ///< in the side of an `if` only a non-finite value takes (`if not
                             ///< torch.isfinite(grad_norm): zero_grad()`): skipping a bad batch, not every step
};

/// Number of Guard values; every name table over Guard has this many entries.
inline constexpr std::size_t k_guard_count = 16;

inline constexpr std::uint16_t guard_bit(Guard guard) {
  return static_cast<std::uint16_t>(guard);
}

/// Where a fact sits syntactically. Repo-wide regions (reachability) are computed later from these.
struct Context {
  std::int32_t function = -1;  ///< index into FileFacts::functions of the innermost function, -1 at module/class level
  std::int32_t klass = -1;     ///< index into FileFacts::classes of the innermost class, -1 outside classes
  std::int32_t loop = -1;      ///< index into FileFacts::loops of the innermost loop, -1 outside loops
  std::int32_t branch = -1;    ///< index into FileFacts::branches of the innermost if/elif branch, -1 outside
  std::uint16_t guards = 0;    ///< bit set of Guard
  bool in_error_region = false;  ///< inside (or at) a tree-sitter ERROR / MISSING node
  bool in_assert = false;        ///< inside an assert statement (its condition or message)

  bool has(Guard guard) const { return (guards & guard_bit(guard)) != 0; }

  bool operator==(const Context&) const = default;
};

enum class ImportOrigin {
  external,       ///< not a module of the scanned repo (torch, flash_attn, json, ...)
  local_source,   ///< resolves to a .py/.pyi/package of the repo
  local_missing,  ///< relative (or repo-package) import of a module the repo does not ship as source:
                  ///< a compiled extension such as `from . import _C`
};

struct ImportFact {
  QualifiedName target;              ///< fully qualified imported thing: "torch.utils.cpp_extension.load_inline"
  QualifiedName module;              ///< the module part: "torch.utils.cpp_extension" (relative imports resolved)
  FactString bound_name;             ///< the local name it binds ("build_inline"); empty for `import a.b` (binds "a")
  std::uint32_t relative_level = 0;  ///< number of leading dots in the source
  bool star = false;                 ///< from m import *
  bool dynamic = false;              ///< importlib.import_module("x") / __import__("x")
  /// A name a package's lazy table re-exports (`_LAZY_IMPORTS = {"ModelLoader": ".model"}`): it binds the
  /// name for the symbol table only; nothing is imported when the package loads.
  bool lazy = false;
  Span at;         ///< the imported name
  Span statement;  ///< the whole statement (a parenthesised import spans several lines)
  Context ctx;

  bool operator==(const ImportFact&) const = default;
};

enum class LiteralKind : std::uint8_t { none, string, integer, floating, boolean, null, name, other };

/// `A if cond else B` with a literal branch: both values without quotes, and cond's text (capped).
struct ConditionalValue {
  FactString then_value;
  FactString else_value;  ///< what runs when the condition fails (on a host without CUDA)
  FactString condition;
  /// The condition's CUDA-presence and device-branch guards (`"nccl" if has_gpu else "gloo"`): a rule
  /// that matches only the first value matches code that runs only where CUDA is.
  std::uint16_t guards = 0;

  bool operator==(const ConditionalValue&) const = default;
};

/// An argument as the rules see it: literal values are kept, anything else as resolved name or text.
struct Argument {
  FactString keyword;      ///< empty for positional arguments
  FactString value;        ///< literal text without quotes ("longest", "True", "128") or the expression text (capped)
  QualifiedName resolved;  ///< for names/attributes that resolve through imports (torch.bfloat16)
  /// For `A if cond else B` with literal branches (rules match either branch); empty otherwise, as it
  /// is for nearly every argument, so it is boxed.
  Box<ConditionalValue> conditional;
  Span at;  ///< the argument (for a keyword argument: `name=value`); empty for values that are not arguments
  std::uint32_t line = 0;  ///< 1-based line where the value starts (a keyword's own line in a long call); 0 unknown
  LiteralKind kind = LiteralKind::none;
  bool is_splat = false;  ///< *args / **kwargs
  /// The value is a Python number as written (`loss.item()`, `float(x)`, `len(batch)`, `3e-4`, a local bound to
  /// one earlier in the function, `optimizer.param_groups[0]["lr"]`): no tensor reaches the callee through it.
  bool scalar = false;

  bool operator==(const Argument&) const = default;
};

struct CallFact {
  QualifiedName callee;      ///< resolved through imports and aliases; empty when the base is not an import
  FactString callee_text;    ///< the source text of the function expression (capped at 200 bytes)
  FactString method;         ///< the last attribute name for attribute calls (x.item() -> "item"), else empty
  FactString receiver_text;  ///< text of the receiver for attribute calls ("loss" in loss.item()), capped
  QualifiedName
      receiver_callee;  ///< when the receiver is itself a call that resolved: np.mean(x).item() -> "numpy.mean"
  bool receiver_is_self = false;  ///< self.foo(...) / cls.foo(...)
  /// The receiver (method calls) or first argument (torch.* calls) is a host tensor built from Python
  /// values (`torch.tensor(sizes).tolist()`): reading it waits for no device.
  bool host_value = false;
  /// The first positional argument is the item of the innermost enclosing comprehension, or built
  /// from it (`[tokenizer(t, ...) for t in texts]`, `[f(ex["text"]) for ex in batch]`): the call
  /// handles one item, not a batch.
  bool item_argument = false;
  CompactArray<Argument> args;  ///< one pointer: a repo has hundreds of thousands of calls
  Span at;                      ///< the whole call expression
  Context ctx;

  bool operator==(const CallFact&) const = default;
};

struct DecoratorFact {
  QualifiedName decorator;      ///< resolved, without call arguments: @triton.autotune(...) -> "triton.autotune"
  FactString text;              ///< source text of the decorator expression (capped)
  CompactArray<Argument> args;  ///< when the decorator is a call
  FactString decorated;         ///< name of the decorated function or class
  Span at;
  Context ctx;

  bool operator==(const DecoratorFact&) const = default;
};

struct AssignFact {
  QualifiedName target;  ///< resolved attribute/name target: torch.backends.cudnn.benchmark, or a plain name
  FactString target_text;
  Argument value;                 ///< the assigned value (literal kind and text, or resolved name)
  bool target_is_import = false;  ///< the target's base resolves to an imported module (patching a library)
  Span at;
  Context ctx;

  bool operator==(const AssignFact&) const = default;
};

/// `x = f(...)` / `self.x = f(...)`: the name a call's value is bound to, so the program can follow the
/// value (an extension handle returned by `cpp_extension.load`). Plain-name bindings of non-literal
/// values are not AssignFacts.
struct BoundCall {
  FactString target_text;             ///< "ext", "self._C" (capped)
  std::uint32_t call_start_byte = 0;  ///< CallFact::at.start_byte of the bound call
  Context ctx;

  bool operator==(const BoundCall&) const = default;
};

/// Where a value goes that the program follows to learn which repo classes a name or a function's
/// result holds: `return build_roi_heads(cfg)`, `return model`, `{"roi_heads": build_roi_heads(cfg)}`,
/// `ret["matcher"] = matcher`. Recorded inside functions only.
enum class ValueSink : std::uint8_t { returned, dict_entry };
struct ValueFact {
  ValueSink sink = ValueSink::returned;
  FactString key;   ///< dict_entry: the string key ("roi_heads"); empty when returned
  FactString name;  ///< the value when it is a plain name ("model"); empty otherwise
  Span value;       ///< the value expression: the calls that build it lie within this span
  Context ctx;

  bool operator==(const ValueFact&) const = default;
};

/// One entry of a module-level dispatch table: `ALL_ATTENTION_FUNCTIONS = {"sdpa": sdpa_forward, ...}`, a
/// dict bound to an upper-case name whose keys are all name-shaped string literals. Code that reads the
/// table by a computed key (`ALL_ATTENTION_FUNCTIONS[config.attn]`) runs the entry a config names
/// (program/variants).
struct DispatchEntry {
  FactString table;  ///< "ALL_ATTENTION_FUNCTIONS"
  FactString key;    ///< "sdpa"
  FactString name;   ///< the value when it is a plain name ("sdpa_forward"); empty otherwise (a lambda)
  Span value;        ///< the value expression: the calls a lambda makes lie within this span

  bool operator==(const DispatchEntry&) const = default;
};

/// A name or attribute chain that resolves through the imports and is used as a value, not called:
/// `ProfilerActivity.CUDA`, `isinstance(x, torch.cuda.FloatTensor)`, `autocast = torch.cuda.amp.autocast`,
/// `cmdclass={"build_ext": BuildExtension}`, a base class. Calls, decorators, import statements and
/// assignment targets have their own facts; only the outermost attribute of a chain is recorded.
struct ReferenceFact {
  QualifiedName name;  ///< resolved: "torch.profiler.ProfilerActivity.CUDA"
  FactString text;     ///< as written (capped)
  Span at;
  Context ctx;

  bool operator==(const ReferenceFact&) const = default;
};

/// A string literal that names a device ("cuda", "cuda:0", "xla", "neuron", "cpu", "mps"), where it is used.
/// `parameter_default`: the default of a function parameter (`def train(..., device="cuda:0")`, the config of a CLI
/// that `fire.Fire(train)` or typer builds from the signature).
enum class DeviceUse { call_argument, assignment, comparison, other, parameter_default };
struct DeviceLiteralFact {
  FactString value;  ///< without quotes
  DeviceUse use = DeviceUse::other;
  FactString callee;  ///< for call_argument: the call's resolved callee or method (".to", "torch.device")
  FactString
      keyword;  ///< call_argument: the keyword ("device") or empty when positional; parameter_default: the parameter
  Span at;
  Context ctx;

  bool operator==(const DeviceLiteralFact&) const = default;
};

/// A structural pattern recognised by a detector (src/detectors); `kind` is the detector's pattern id.
struct PatternFact {
  FactString kind;    ///< "data-dependent-branch", "boolean-mask-index", "print-tensor", ...
  FactString detail;  ///< human-readable specifics ("if x.max() > t")
  Span at;
  Context ctx;

  bool operator==(const PatternFact&) const = default;
};

struct FunctionInfo {
  FactString name;           ///< "forward"
  FactString qualname;       ///< "Attention.forward", "train.<locals>.step" is written "train.step"
  std::int32_t klass = -1;   ///< enclosing class (methods), -1 for functions
  std::int32_t parent = -1;  ///< enclosing function, -1 at module or class level
  CompactArray<QualifiedName> decorators;
  CompactArray<FactString> params;
  bool is_async = false;
  /// Its body yields (`def cycle(dl): while True: yield from dl`): calling it builds a generator, and the body runs
  /// where the generator is consumed (`next(train_dl)`), not where it is called.
  bool is_generator = false;
  /// Defined under an if/try/with/loop of its scope rather than directly in the module, class or function
  /// body: another definition of the name may be the one that runs (`try: def f(...)` / `except: def f`).
  bool conditional = false;
  /// A nested, undecorated function whose name its enclosing function's text never has again, not as a call,
  /// a value or in a string (`def load(args): ...; def _cpp_extention_load_helper(...): return
  /// cpp_extension.load(...)` with the calls cut): nothing can call it.
  bool unreferenced_nested = false;
  /// The parameter (index into params) a call gets back as None when it passes None: the body opens, after a
  /// docstring, with `if p is None: return None` (or `return p`), fairseq's `def eval_str_dict(x, type=dict): if x
  /// is None: return None`. So `x = eval_str_dict(x)` keeps whether x is None (program/passed_options). -1: none.
  std::int8_t none_passthrough = -1;
  Span at;  ///< the whole definition (the `def` statement, decorators not included)
  // Filled from the calls inside the body (not nested functions):
  bool calls_backward = false;            ///< x.backward() / accelerator.backward(x) / scaler.scale(x).backward()
  bool calls_optimizer_step = false;      ///< optimizer.step() / xm.optimizer_step(...) / scaler.step(...)
  CompactArray<Argument> param_defaults;  ///< one per parameter with a default: keyword = name, value = the default

  bool operator==(const FunctionInfo&) const = default;
};

struct ClassInfo {
  FactString name;
  FactString qualname;
  CompactArray<QualifiedName> bases;  ///< resolved: nn.Module -> torch.nn.Module; repo classes as written
  CompactArray<FactString> base_texts;
  std::int32_t parent_function = -1;
  Span at;

  bool operator==(const ClassInfo&) const = default;
};

enum class LoopKind { for_loop, while_loop, comprehension };
struct LoopInfo {
  LoopKind kind = LoopKind::for_loop;
  std::int32_t parent = -1;  ///< enclosing loop in the same function
  std::int32_t function = -1;
  FactString iter_text;         ///< "for batch in train_loader" -> "train_loader" (capped)
  FactString target_text;       ///< the names the loop binds, comma-separated ("batch", "i,batch"; capped)
  bool calls_backward = false;  ///< the body (nested loops included) calls backward / optimizer step
  Span at;

  bool operator==(const LoopInfo&) const = default;
};

/// One term of an if/elif condition joined by `and`: what the program stage needs to tell availability
/// flags (`if HAS_APEX:`) and opt-in options (`if config.use_fp8:`, `elif cfg.attention == "flash":`).
struct ConditionTerm {
  FactString name;       ///< dotted text of the tested name ("config.use_fp8"), or a call's callee text + "()"
  FactString equals;     ///< the literal it is compared with by == (without quotes); empty for a truth test
  bool negated = false;  ///< under `not`, or compared with !=
  bool greater = false;  ///< `name > equals` with a number (`if self.vis_period > 0:`, `if self.alpha_mse > 0.0:`)
  /// `name in ("a", "b")` (`not in`: negated): `equals` holds the literals, joined by k_member_separator.
  bool member = false;
  /// `args.optimizer.lower() == "adam8bit"`: the tested name is case-folded (`.lower()`, `.upper()`,
  /// `.casefold()`) before the comparison, so a value matches `equals` without regard to case.
  bool folded = false;
  /// `cfg["ffn_type"] in ffns_with_megablocks`: a membership test on an imported name that is no literal
  /// collection (a registry filled by `ffns_with_megablocks.register("mb_moe", ...)` calls elsewhere).
  /// `member` is set too, and `equals` holds the name's resolved dotted form, not literals; the program
  /// turns the term into a literal one from the registrations it finds (program/options), or judges
  /// nothing by it.
  bool registry = false;
  /// `"fused" in opt_lower`: the tested name's string value contains `equals` (`member` is set too, with
  /// that one literal; `not in`: negated).
  bool contains = false;
  /// `opt_lower == "fusedsgd"` after `opt_split = args.opt.lower().split("_")`, `opt_lower = opt_split[-1]`:
  /// the tested name's value is split at this character (0: not split) and ...
  char split_separator = 0;
  /// ... this part of it is compared (-1: the last).
  std::int8_t split_part = 0;

  bool operator==(const ConditionTerm&) const = default;
};

/// Separates the literals of a membership term's `equals` (ConditionTerm::member).
inline constexpr char k_member_separator = '\x1f';

/// The name of the one term of a branch no run takes: the statements of a block after one that always leaves
/// it (`assert False, "..."`, `raise`, `return`, `continue`, `break`, `sys.exit(1)`). `equals` says which
/// (`` `assert False` (line 42) ``). Not a Python name, so no condition of the code can spell it.
inline constexpr std::string_view k_unreachable_term = "<unreachable>";
/// How a finding's opt-in option names such a branch: "unreachable after `raise` (line 42)".
inline constexpr std::string_view k_unreachable_prefix = "unreachable after ";

/// One side of an if/elif statement. Facts inside it point here through Context::branch.
struct BranchInfo {
  std::int32_t parent = -1;           ///< the enclosing branch, -1 when none
  CompactArray<ConditionTerm> terms;  ///< the condition's and-terms (or-terms when any_of); empty when neither
  bool else_side = false;             ///< the elif/else side: the terms are false here
  bool any_of = false;                ///< `if a or b:` (an if/elif of simple terms): any term takes the branch
  Span at;                            ///< the condition

  bool operator==(const BranchInfo&) const = default;
};

/// A dependency declared in requirements*.txt, pyproject.toml, setup.cfg or setup.py.
struct DependencyFact {
  FactString name;     ///< normalised per PEP 503: lower case, runs of -_. become '-'
  FactString spec;     ///< the requirement as written ("flash-attn>=2.5")
  FactString section;  ///< "dependencies", "optional-dependencies.gpu", "install_requires", ...
  Span at;

  bool operator==(const DependencyFact&) const = default;
};

/// One scalar of a YAML/JSON config file (a Hydra, torchtune, litgpt or Lightning recipe): where a
/// training run's settings live when they are not code (`optimizer: {_target_: apex.optimizers.FusedAdam}`,
/// `device: cuda`, `precision: 16`). Read by facts::extract_settings; nothing in the file is run.
struct SettingFact {
  FactString key;    ///< the map keys from the root, joined with '.' ("trainer.accelerator"); a list adds none
  FactString value;  ///< the scalar as written, unquoted ("apex.optimizers.FusedAdam", "16-mixed")
  Span at;           ///< the key's line and column (1-based); end_column past the value on that line
  /// For a launch flag (facts/launch_flags): the script the launch line runs, as written (`train.py`,
  /// `src/train.py`), or a module after `-m` with its dots (`pkg.train`); empty in a config file.
  FactString program;

  bool operator==(const SettingFact&) const = default;
};

/// A comment that holds a `tr2audit:` directive, as written; gate/suppress parses and applies it.
/// Collected in the extraction walk (Python) or from the loaded text (other kinds): never a re-read.
struct DirectiveComment {
  std::uint32_t line = 0;
  std::uint32_t column = 0;  ///< 1-based column of the comment marker
  std::uint32_t covers = 0;  ///< the line it applies to: an own-line comment covers the next line that is not
                             ///< itself a comment-only line (so directives stack); otherwise its own line
  bool own_line = false;     ///< nothing but blanks before it on its line
  FactString text;           ///< after the marker, without a trailing '\r'

  bool operator==(const DirectiveComment&) const = default;
};

/// The StringPool a file's facts borrow their strings from, shared by copies of the FileFacts (so a
/// copied fact stays valid while any copy of its file's facts lives). An extraction worker's files share
/// one pool, so a name the files have in common is stored once. Never compared.
struct FactStrings {
  std::shared_ptr<StringPool> pool = std::make_shared<StringPool>();
  /// Bytes this file's facts added to the pool (what the facts budget counts for its strings).
  std::uint64_t added_bytes = 0;

  /// The pool's copy of text.
  FactString operator()(std::string_view text) const { return pool->intern(text); }
  QualifiedName name(std::string_view dotted) const { return QualifiedName::from_text(pool->intern(dotted)); }
  QualifiedName name(const QualifiedName& name) const { return this->name(name.dotted().view()); }
  bool operator==(const FactStrings&) const { return true; }
};

struct FileFacts {
  FactString path;  ///< rel_path of the file
  discover::FileKind kind = discover::FileKind::python;
  bool is_test = false;
  FactString module_name;        ///< dotted module of a Python file ("pkg.models.llama"), "" otherwise
  FactString cpu_twin;           ///< a CUDA source's CPU implementation beside it (discover::SourceFile::cpu_twin)
  bool is_package_init = false;  ///< __init__.py
  std::uint32_t lines = 0;
  bool has_syntax_errors = false;
  std::vector<Span> error_spans;                ///< first few ERROR/MISSING spans
  std::vector<std::uint32_t> cell_first_lines;  ///< notebooks: see discover::LoadedSource
  std::vector<std::uint32_t> cell_numbers;
  std::vector<FilePlace> notebook_places;    ///< notebooks: see discover::LoadedSource
  std::vector<JsonEscape> notebook_escapes;  ///< notebooks: see discover::LoadedSource

  std::vector<ImportFact> imports;
  std::vector<CallFact> calls;
  std::vector<DecoratorFact> decorators;
  std::vector<AssignFact> assigns;
  std::vector<BoundCall> bound_calls;
  /// `ids = tokenizer(prompt, padding="longest").input_ids`: a plain name bound to an attribute of a call's
  /// value (the call is not the name's value, so these are not bound_calls; rules/match reads them)
  std::vector<BoundCall> read_bindings;
  std::vector<ValueFact> values;  ///< returned values and dict entries (program/types)
  std::vector<ReferenceFact> references;
  std::vector<DeviceLiteralFact> devices;
  std::vector<PatternFact> patterns;
  std::vector<DependencyFact> dependencies;
  std::vector<SettingFact> settings;  ///< config files (discover's `config` kind): one per scalar
  /// The scripts a shell script's (or a notebook's shell escapes') launch lines run, flags or not
  /// (facts/launch_flags: `python networks/probe.py`, `-m pkg.train` as "pkg.train"), as written.
  std::vector<FactString> launched_programs;
  /// Name-shaped string literals ("RROIHeads", "torch.optim.AdamW"), sorted and unique, by which a registry or config
  /// picks a class (program/variants); not docstrings, `__all__` entries, keys of a module-level upper-case dict (a
  /// dispatch table's own keys) or strings compared with a value (`== "ring"` tests for a name, it selects nothing;
  /// so does `in ["ROIAlignRotated"]`).
  std::vector<FactString> name_strings;
  /// String literals that name CUDA sources, as written (`"csrc/fftconv_cuda.cu"`, `"*.cu"`, `f"{name}.cu"`):
  /// which `.cu` files a build lists (program/compiled_code). At most k_max_source_strings per file.
  std::vector<FactString> source_file_strings;
  /// Private plain names (`_helper`, not dunders) the code uses as values (`prune_configs_by=
  /// {"early_config_prune": _prune}`, `fn=_helper`), and capitalised plain names it uses other than by
  /// calling them (`[ConvLayer, UpSampleLayer]`, `isinstance(m, Block)`, `Block.build(cfg)`), sorted and
  /// unique: not calls, definitions, imports, annotations or assignment targets (program/variants: which module-level
  /// private helpers and which classes of the repo are used).
  std::vector<FactString> used_names;
  std::vector<DispatchEntry> dispatch_entries;
  /// Upper-case names the code reads by a computed key, sorted and unique: `TABLE[expr]` with a key that is
  /// not a string literal (program/variants: which dispatch tables pick an entry by configuration).
  std::vector<FactString> computed_lookups;
  std::vector<FunctionInfo> functions;
  std::vector<ClassInfo> classes;
  std::vector<LoopInfo> loops;
  std::vector<BranchInfo> branches;
  std::vector<DirectiveComment> directives;  ///< comments holding `tr2audit:` (suppressions)
  std::vector<Problem> problems;
  FactStrings strings;  ///< owns the text of every string above

  bool operator==(const FileFacts&) const = default;
};

/// Sets each directive's `covers`: an own-line one covers the next line not in comment_only_lines
/// (sorted: the lines that hold nothing but a comment), any other its own line.
void set_covered_lines(std::vector<DirectiveComment>& directives, const std::vector<std::uint32_t>& comment_only_lines);

/// Reads dependency declarations from a manifest (requirements*.txt, pyproject.toml, setup.cfg).
/// setup.py is Python: its install_requires come from facts::extract.
/// Every reader also gives "package-index" facts for pip's `--index-url`/`--extra-index-url`/`-f` (name:
/// the URL in lower case), at the URL's line.
std::vector<DependencyFact> extract_dependencies(discover::FileKind kind, std::string_view text);
/// A YAML file that is a conda environment whatever its name (`requirements.yaml` with top-level `channels:`
/// and `dependencies:`): read as one (discover's `conda-env` kind), not for a run's settings.
bool looks_like_conda_environment(std::string_view text);
/// A shell script (`*.sh`, discover's `config` kind): only the package indexes of its `pip install` lines.
std::vector<DependencyFact> read_shell_script(std::string_view text);

/// The settings of a YAML/JSON config file (`rel_path` decides which files hold a run's settings: CI
/// workflows, pre-commit, docs sites, Kubernetes manifests and other tools' files yield none). Read
/// through the bounded core YAML loader and walked with an explicit stack; a file that is not YAML
/// (a template, a launch script) yields none, and at most k_max_settings per file are kept.
std::vector<SettingFact> extract_settings(std::string_view rel_path, std::string_view text);
inline constexpr std::size_t k_max_settings = 20'000;

/// One "cuda-kernel" PatternFact per `__global__` function in C++/CUDA text (detail: the kernel name),
/// at the qualifier's line; comments and string literals are skipped.
std::vector<PatternFact> find_cuda_kernels(std::string_view text);

/// Source-list strings kept per file (FileFacts::source_file_strings).
inline constexpr std::size_t k_max_source_strings = 256;

/// The `.cu`/`.cuh` file names a text mentions, with their folders as written
/// (`sources=[f"{d}/fbd/fbd_cuda_kernel.cu"]` gives "fbd/fbd_cuda_kernel.cu"); a mention without a name
/// (`"*.cu"`, `f"{name}.cu"`, `endswith(".cu")`) gives "".
void cuda_source_names(std::string_view text, std::vector<std::string>& out);

/// A folder a manifest installs packages from, as written (`./pkg/`), normalised ("pkg"); "" for the project's
/// own folder or one outside it (`.`, `..`).
std::string_view package_root_folder(std::string_view folder);
/// The unquoted value of the empty key in a mapping's text (`{"" = "pkg"}` with '=', `{"": "src"}` with ':'), or "".
std::string_view root_package_dir(std::string_view mapping, char separator);

/// PEP 503 normalisation of a distribution name ("Flash_Attn" -> "flash-attn").
std::string normalize_distribution_name(std::string_view name);

}  // namespace tr2audit::facts
