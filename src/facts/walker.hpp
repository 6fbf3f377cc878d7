// facts/walker (private): one file's main pass. Implements the enter/leave visitor: context frames
// (function, class, loop, guard, error region), scoped import bindings, fact recording and detector
// dispatch. Handlers for imports, calls and assignments live in walker_*.cpp.
#pragma once
#include <tree_sitter/api.h>

#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "facts/import_table.hpp"
#include "facts/syntax.hpp"
#include "tr2audit/detectors/detector.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::facts {

/// Detectors indexed by node kind: dispatch is one vector lookup per node.
using DispatchTable = std::vector<std::vector<detectors::Detector*>>;

class Walker final : public detectors::NodeScope {
 public:
  enum class Mode { bindings_only, full };

  Walker(const SourceView& source, FileFacts& out, const DispatchTable& dispatch, std::uint32_t max_error_spans);

  /// Pre-pass: module-level imports and aliases only, not descending into functions or classes.
  void collect_module_bindings(TSNode root);
  /// Main pass: every fact, with context.
  void extract(TSNode root);

  // detectors::NodeScope
  std::string_view source() const override { return m_src.text(); }
  const parse::NodeKinds& kinds() const override { return m_src.kinds(); }
  std::string_view text(TSNode node) const override { return m_src.node_text(node); }
  QualifiedName resolve(TSNode node) const override;
  const Context& context() const override { return m_ctx; }
  const FileFacts& facts_so_far() const override { return m_out; }
  void emit(std::string_view kind, TSNode node, std::string detail) override;
  void emit_guarded(std::string_view kind, TSNode node, std::string detail, TSNode guard) override;
  bool host_value(TSNode expr) const override;

 private:
  struct Frame {
    TSNode node;
    Context saved;
    bool pops_scope = false;
    std::uint16_t branch_guards = 0;  ///< for if/elif/try: guards its branches receive
    std::int32_t condition = -1;      ///< for if/elif: the FileFacts::branches entry of its consequence side
    std::uint16_t then_guards = 0;    ///< for if/elif: guards only the consequence receives
    std::uint16_t else_guards = 0;    ///< for if/elif: guards only the elif/else side receives
    /// Guards the rest of the enclosing block gets once this if statement is left: `not-training` after
    /// `if self.training: ... return`, `import-error-fallback` after `if not is_x_available(): return`.
    std::uint16_t guards_after = 0;
    /// For `if not opt: return` (no else, one term): the branch the rest of the enclosing block runs
    /// in is the negated term, recorded as a FileFacts::branches entry once the if is left.
    std::vector<ConditionTerm> terms_after;  ///< what holds after an early-return if (all of them)
    bool terms_after_any_of = false;         ///< ... or any of them (after `if not a and not b: return`)
    TSNode condition_node{};
    std::uint32_t depth = 0;    ///< of node in the tree (its children are one deeper)
    bool message_only = false;  ///< for if: the body only prints/logs/warns, so its condition picks a message
  };

  bool on_enter(const parse::WalkStep& step);
  void on_leave(const parse::WalkStep& step);
  void push_frame(TSNode node, bool pops_scope = false, std::uint16_t branch_guards = 0);
  bool enter_structure(TSNode node, TSSymbol kind, TSFieldId field);
  /// The expression holds a call into an imported module (outside lambdas).
  bool contains_call(TSNode expr) const;
  void enter_branch(TSNode node, TSFieldId field, std::uint32_t depth);
  void enter_conditional_value(TSNode node);
  void record_facts(TSNode node, TSSymbol kind, TSFieldId field);

  // walker_scopes.cpp
  void enter_function(TSNode node);
  void enter_class(TSNode node);
  void enter_loop(TSNode node, LoopKind kind);
  std::string loop_targets(TSNode node, LoopKind kind) const;
  bool item_argument(std::span<const Argument> args) const;
  void enter_lambda(TSNode node);
  void shadow_parameters(TSNode parameters);
  std::int8_t none_passthrough(TSNode node, const std::vector<std::string_view>& names) const;
  void note_error(TSNode node);
  // directive_comments.cpp
  void on_comment(TSNode node);

  // walker_imports.cpp
  void on_import(TSNode node);
  void on_import_from(TSNode node);
  void add_import(QualifiedName target, QualifiedName module, std::string bound, std::uint32_t level, TSNode at,
                  TSNode statement);
  std::string resolve_relative(TSNode relative_import, std::uint32_t& level) const;

  // walker_calls.cpp
  void on_call(TSNode node);
  void on_decorator(TSNode node);
  void on_assignment(TSNode node);
  void bind(TSNode node, TSNode left, TSNode right);
  /// True when the class (an index of m_out.classes) derives from an enum type (`StrEnum`, `Enum`).
  bool enum_class(std::int32_t klass) const;
  void on_keyed_assignment(TSNode left, std::string_view key, TSNode right, TSNode node);
  /// `field(default=False, ...)` in a class body: the literal default into `out` (left alone otherwise).
  void field_default(TSNode value, Argument& out) const;
  void on_value(TSNode node, TSSymbol kind);
  void add_value(ValueSink sink, std::string key, TSNode value);
  void on_string(TSNode node);
  /// `f"cuda:{local_rank}"`: "cuda:{local_rank}", a device type with an index computed at run time; nullopt
  /// for any other f-string.
  std::optional<std::string> indexed_device_fstring(TSNode node) const;
  /// `TABLE[config.key]`: an upper-case name read by a computed key (FileFacts::computed_lookups).
  void on_subscript(TSNode node);
  /// `TABLE = {"sdpa": sdpa_forward, ...}` at module level: FileFacts::dispatch_entries.
  void on_dispatch_table(TSNode left, TSNode right);
  /// `attn_config_defaults = {"rope": False, ...}` at module level: one AssignFact per literal entry
  /// (`attn_config_defaults.rope = False`), which program/options reads as that key's default.
  void on_defaults_table(TSNode left, TSNode right);
  void on_lazy_import_table(TSNode left, TSNode right);
  /// ".model" / "pkg.mod" / "configuration_llama" against this package: the module's dotted name.
  std::string lazy_module(std::string_view text, bool relative_key, std::uint32_t& level) const;
  /// The string `up` levels below the path's end is a key of a dispatch table (not a use of the name).
  bool dispatch_key(std::size_t up) const;
  void on_reference(TSNode node, TSFieldId field);
  void note_class_like_use(TSNode node, TSFieldId field);
  std::vector<Argument> read_arguments(TSNode argument_list) const;
  /// SourceView::literal, with the guards of a conditional value's condition.
  Argument value_literal(TSNode node) const;
  void note_training_calls(const CallFact& call);
  void on_special_call(const CallFact& call, TSNode node);

  // guards.cpp
  std::uint16_t condition_guards(TSNode condition) const;
  bool is_periodic_test(TSNode value) const;  ///< `i % n == 0` (or an `or` with one): holds every N steps
  /// The and-terms of a condition (empty when it is not a plain conjunction of tests).
  std::vector<ConditionTerm> condition_terms(TSNode condition) const;
  std::vector<ConditionTerm> disjunction_terms(TSNode condition) const;  ///< `a or b`: any term takes it
  /// `RLType.EBFT`: a dotted name whose class segment is CapWords, compared like a literal.
  static bool enum_member(const Argument& value);
  /// `("a", "b")` -> "a\x1fb" (k_member_separator); nothing unless every element is a literal or enum member.
  std::optional<std::string> literal_members(TSNode collection) const;
  /// `args.optimizer.lower()` -> "args.optimizer" (also `.upper()`, `.casefold()`); nothing for other calls.
  std::optional<std::string> case_folded_name(TSNode call) const;
  /// True when an if statement's else branch only raises (a hard requirement, not a fallback).
  bool else_only_raises(TSNode if_statement) const;
  /// The caught exceptions (`RuntimeError`, `(RuntimeError, torch.linalg.LinAlgError)`) are all runtime or
  /// numerical failures, so the clause is a retry that runs only when its `try` fails.
  static bool recovers_from_failure(std::string_view caught);
  static bool catches_everything(std::string_view caught);
  /// `f"pkg.models.{name}.modeling_{name}"` → "pkg.models.*.modeling_*": an f-string module path with a fixed
  /// package prefix, its computed parts as `*`; nothing for anything else.
  static std::optional<std::string> module_template(
      std::string_view text);  ///< `Exception` / `BaseException` (`as e` allowed)
  /// The try statement's body holds only portable code: no import, definition or CUDA name, and calls only of
  /// torch/math functions, builtins and methods of local values.
  bool try_body_portable(TSNode try_statement) const;
  /// `if torch.cuda.is_available(): n_gpus = ...` with no else, no earlier value of n_gpus in the block
  /// and a later use of it: without CUDA the code after it fails, so the guard is no fallback.
  bool binds_name_needed_later(TSNode if_statement) const;
  /// `if probe(): print(...)` / `logger.warning(...)` / `warnings.warn(...)` with no else: the body only
  /// reports something, so the condition's calls decide a message, not what the program does.
  bool then_only_messages(TSNode if_statement) const;
  bool then_ends_in_failure(TSNode if_statement) const;  ///< the body ends with a raise or a failing exit
  /// `sys.exit(1)`, `exit()`, `quit()`, `os._exit(2)` as a statement: the call, or a null node.
  TSNode process_exit(TSNode statement) const;
  /// `if attr.device != torch.device("cuda"): attr = attr.to(torch.device("cuda"))`: a test that the value is NOT on
  /// CUDA whose body moves it there runs exactly where CUDA is missing; it guards nothing.
  bool moves_to_cuda_when_elsewhere(TSNode if_statement) const;
  /// `assert False, "..."`, `raise`, `return`, `continue`, `break`, `sys.exit(...)` as a statement of a block,
  /// with a statement after it in that block: what it is, as the unreachable term says it (`` `raise` (line 42) ``),
  /// or "" when the statement does not always leave the block or nothing follows it.
  std::string leaves_block(TSNode statement) const;
  /// `if not is_te_available(): return False` (no else): what follows runs only when the library is there.
  std::uint16_t returns_unless_available(TSNode if_statement, TSNode condition) const;
  /// The if statement has no else/elif and its body ends in `return`: what follows runs only when the
  /// condition is false.
  bool returns_early(TSNode if_statement) const;
  /// `torch.jit.is_scripting() or torch.jit.is_tracing()`: a branch only TorchScript/ONNX export takes.
  bool export_only(TSNode condition) const;
  /// `if not torch.isfinite(grad_norm):` / `torch.isnan(loss).any()`: +1 when only a non-finite value takes the
  /// branch, -1 when only one takes its else side (`if torch.isfinite(loss):`), else 0.
  int non_finite_test(TSNode condition) const;
  /// Guards the consequence (first) and the else side (second) of an if get from training-mode and
  /// KV-cache tests; sets `early_return` for `if self.training: ... return` without an else.
  std::pair<std::uint16_t, std::uint16_t> training_mode_guards(const std::vector<ConditionTerm>& terms,
                                                               TSNode if_statement, bool& early_return) const;
  std::int32_t add_branch(CompactArray<ConditionTerm> terms, bool else_side, TSNode condition, bool any_of = false);
  /// What holds after `if <condition>: return` (no else): the negated term of a one-term condition, or of
  /// each disjunct of `a or b or ...` whose disjuncts are one term each (all of them hold), or of each
  /// conjunct of `a and b and ...` that gave one term each (any of them holds: sets `any_of`); empty otherwise.
  std::vector<ConditionTerm> terms_after_return(TSNode condition, const std::vector<ConditionTerm>& terms,
                                                bool& any_of) const;
  /// The operands of a chain of `and`s (1 for any other condition).
  std::size_t conjunct_count(TSNode condition) const;
  CompactArray<ConditionTerm> else_terms(const BranchInfo& taken, TSNode condition) const;
  std::uint16_t try_guards(TSNode try_statement) const;
  enum class LiteralAnswer : std::uint8_t { none, returned, assigned };
  LiteralAnswer literal_answer(TSNode except_clause) const;
  /// True when a block calls `torch.cuda.*` outside nested definitions.
  bool calls_cuda(TSNode body) const;
  void mark_backend_fallbacks();
  void mark_optional_library_calls();
  bool is_no_grad_with(TSNode with_statement) const;
  bool is_step_closure_lambda(TSNode lambda) const;

  const SourceView& m_src;
  const parse::NodeKinds& m_k;
  FileFacts& m_out;
  const DispatchTable& m_dispatch;
  std::uint32_t m_max_error_spans;
  ImportTable m_imports;
  Context m_ctx;
  std::vector<Frame> m_frames;
  Mode m_mode = Mode::full;
  std::uint32_t m_depth = 0;  ///< depth of the next node entered (the walk's enter/leave events keep it)
  /// The nodes from the root to the one being entered: `ts_node_parent` walks down from the root, so
  /// asking it for every name made extraction quadratic in nesting depth (a 50,000-term `a + a + …`).
  std::vector<TSNode> m_path;
  /// The ancestor `up` levels above the node being entered (1 = its parent); a null node above the root.
  TSNode ancestor(std::size_t up) const { return up < m_path.size() ? m_path[m_path.size() - 1 - up] : TSNode{}; }
  std::vector<std::string> m_step_closure_names;    ///< functions passed by name to xm.add_step_closure
  std::vector<std::uint32_t> m_comment_only_lines;  ///< lines holding only a comment (directive coverage)
  /// Module-level list literals by name (`_deps = ["deepspeed==0.16.8", ...]`, `REQUIRED = [...]`): what
  /// setup()'s `install_requires=install_requires` and `deps["deepspeed"]` lookups refer to.
  std::vector<std::pair<std::string_view, TSNode>> m_module_lists;
  /// Names bound in a function, in document order, to a tuple/list/set literal (`eight_bit_names = ["Adam8bit",
  /// ...]`), or to anything else (a null node): what a later `x in eight_bit_names` tests against.
  struct LocalCollection {
    std::int32_t function;
    std::string_view name;
    TSNode collection;
  };
  std::vector<LocalCollection> m_local_collections;
  /// Names a function binds (latest binding) to a once-every-N-steps test (`is_metric_step = (i % metric_every
  /// == 0) or last_batch`): a later `if is_metric_step:` is periodic like the test itself. Few per file.
  std::vector<std::pair<std::int32_t, std::string_view>> m_periodic_locals;
  void note_periodic_local(std::string_view name, TSNode value);
  /// Module-level functions whose whole body returns a once-every-N-steps test (`def divisible_by(num, den):
  /// return (num % den) == 0`): a later `if divisible_by(i, validate_every):` is periodic like the test.
  std::vector<std::string_view> m_periodic_functions;
  /// Module-level functions whose whole body is `return v is not None` (`def exists(val)`): `if exists(x):` is
  /// the condition term `x is not None`.
  std::vector<std::string_view> m_none_tests;
  /// Fills m_periodic_functions and m_none_tests from a module-level definition.
  void note_helper_predicate(TSNode definition, std::string_view name);
  /// The expression a definition with `params` parameters returns as its whole body; null otherwise.
  TSNode sole_return(TSNode definition, std::uint32_t params) const;
  /// Locals a function last bound to a value true only where CUDA is (`x and torch.cuda.is_available()`).
  std::vector<std::pair<std::int32_t, std::string_view>> m_cuda_locals;
  /// Names an ImportError handler sets to None after a try imported them (`except ImportError: bnb = None`):
  /// the import stays bound (Walker::bind), and `if bnb is not None:` asks whether it is installed.
  std::vector<std::string_view> m_optional_imports;
  bool requires_cuda_probe(TSNode value) const;
  /// The operands of a chain of one boolean operator (`a or (b or c)`), or the node itself.
  std::vector<TSNode> operands(TSNode node, std::string_view op) const;
  /// Names a function binds (latest binding) to a Python number (`loss_value = loss.item()`): an argument that
  /// passes one is `Argument::scalar`. Few per function.
  std::vector<std::pair<std::int32_t, std::string_view>> m_scalar_locals;
  bool scalar_value(TSNode value) const;  ///< a number as written (see Argument::scalar)
  /// Names a function binds (latest binding) to a string form of a name: `opt_lower = args.opt.lower()`, then
  /// `opt_split = opt_lower.split("_")` and `opt_lower = opt_split[-1]`. A later `if opt_lower == "fusedsgd":`
  /// tests `args.opt` through those steps (ConditionTerm::folded, split_separator, split_part). Few per file.
  struct StringForm {
    std::int32_t function = -1;
    std::string_view name;
    std::string source;        ///< the dotted or keyed name the form is of ("args.opt")
    std::int32_t branch = -1;  ///< the branch the binding sits in (-1: none): it holds for tests inside it only
    bool folded = false;       ///< case-folded (`.lower()`, `.upper()`, `.casefold()`)
    char separator = 0;        ///< split at this character...
    std::int8_t part = 0;      ///< ... and this part taken (-1: the last)
    bool split_list = false;   ///< split, no part taken yet: a list, not a string
  };
  std::vector<StringForm> m_string_forms;
  void note_string_form(std::string_view name, TSNode value);
  std::optional<std::string> deepspeed_query(TSNode node) const;
  std::optional<StringForm> string_form(TSNode value) const;
  /// The string form `name` holds where a condition reads it: bound in this function, in a branch that
  /// encloses the reading one.
  const StringForm* string_form_of(std::string_view name) const;
  /// The tuple/list/set literal `name` holds where it is read: its latest binding in the current function,
  /// else a module-level list literal; a null node when it is bound to something else or not known.
  TSNode collection_of(std::string_view name) const;

  bool in_dunder_all(std::size_t up) const;  ///< the string `up` levels below the path's end is in `__all__`
  bool in_registration(std::size_t up) const;
  bool names_own_binding(std::size_t up, std::string_view value)
      const;      ///< `X = make_dummy("X", ...)`  ///< ... is a registering decorator's name (`@REG.register("x")`)
  void finish();  ///< post-pass: guards that depend on the whole file (step closures)
  // walker_calls.cpp (continued)
  void on_setup_call(TSNode node);
  void add_setup_requirements(TSNode value, std::string_view section);
  std::string callee_label(TSNode call) const;

  // walker_host.cpp: names bound to host tensors built from Python values, per function
  void note_host_name(TSNode left, TSNode right);
  void apply_host_name(std::pair<std::int32_t, std::string> key, bool host);
  void settle_host_names(TSNode left_node);
  bool has_keyword_argument(TSNode call, std::string_view keyword) const;
  bool moves_to_device(TSNode call) const;
  std::set<std::pair<std::int32_t, std::string>> m_host_names;
  /// Host-name updates waiting for their value's node to be left (note_host_name, settle_host_names).
  struct PendingHostName {
    TSNode value;
    std::pair<std::int32_t, std::string> key;
    bool host = false;
  };
  std::vector<PendingHostName> m_pending_host;
};

}  // namespace tr2audit::facts
