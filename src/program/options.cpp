// Guards only the whole repo can tell, per if/elif branch:
// - availability flags: `if HAS_APEX:` / `if _TRITON_AVAILABLE:` where the flag is set in a
//   try/except ImportError somewhere in the repo (or is named like one), `find_spec(...)` tests;
// - opt-in options: `if config.use_fp8:` / `elif cfg.attention == "flash":` / `if quantize == "bnb.nf4":`
//   where every default the repo gives that option (argparse, dataclass or config-class fields,
//   parameter defaults, module constants) leaves the branch off; `if False:` likewise.
#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "program/model.hpp"
#include "program/option_values.hpp"
#include "program/passed_options.hpp"
#include "tr2audit/core/parallel.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

using namespace option_values;

// `name` is one of the function's parameters, keyword-only ones included ("*, max_tokens_per_chunk: int").
bool named_parameter(const facts::FunctionInfo& fn, std::string_view name) {
  return std::any_of(fn.params.begin(), fn.params.end(), [&](const FactString& text) {
    return std::string_view(text).substr(0, text.find_first_of(":= ")) == name;
  });
}

class BranchGuards {
 public:
  explicit BranchGuards(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    m_registries = registered_names(m_impl.files);
    m_switched_on = constructor_arguments(m_impl.files);
    for (const auto& file : m_impl.files) {
      for (const auto& klass : file.classes) {
        for (const auto& base : klass.base_texts) m_base_names.insert(last_segment(base.view()));
      }
    }
    m_constructor_switches.emplace(m_impl.files);
    m_setter_calls.emplace(m_impl.files, m_impl.main_block_self_test);
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) collect(f, m_impl.files[f]);
    m_hydra_defaults = hydra_defaults(m_impl.files);
    m_launched.emplace(m_impl.files, m_file_cli_options);
    m_passed = m_impl.call_sites.get();
    index_derived();  // read by the workers below
    m_impl.branch_guards.resize(m_impl.files.size());
    m_option.resize(m_impl.files.size());
    // A file's branches are judged from repo-wide tables filled above, and write only that file's
    // slots: the files go to the workers. judge_isinstance reads other files' results and fills a
    // cache, so it runs after, on this thread.
    parallel_for(m_impl.files.size(), std::max(1u, m_impl.jobs), [this](unsigned, std::size_t f) { judge_file(f); });
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) judge_isinstance(f);
    m_impl.branch_option.resize(m_impl.files.size());
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) {
      for (std::size_t b = 0; b < m_option[f].size(); ++b) {
        if (!m_option[f][b].empty())
          m_impl.branch_option[f].entries.emplace_back(static_cast<std::int32_t>(b), std::move(m_option[f][b]));
      }
      m_option[f] = {};
    }
  }

 private:
  /// The repo's default for option `option` (a config field's, else a command-line flag's) leaves `term` off.
  bool option_unset(std::string_view option, const facts::ConditionTerm& term) const {
    const std::string key(option);
    return m_options.off_by_default(key, term) || m_cli_options.off_by_default(key, term);
  }

  void collect(std::uint32_t f, const facts::FileFacts& file) {
    for (const auto& assign : file.assigns) {
      if (assign.target_text.find('.') != std::string::npos && !assign.target_text.starts_with("self."))
        m_outside_attributes.insert(last_segment(assign.target_text));
      const std::string name = last_segment(assign.target.dotted());
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.value.kind == facts::LiteralKind::boolean &&
          (assign.ctx.has(facts::Guard::import_error_fallback) || assign.ctx.has(facts::Guard::except_handler)))
        m_flags.insert(name);
      if (assign.ctx.function < 0 && assign.ctx.klass >= 0) m_options.add(name, assign.value);  // config fields
      // `attn_config_defaults = {"rope": False, ...}`: a module-level table of defaults gives each key's default
      // (Walker::on_defaults_table), read where a config dict it fills is (`config.attn_config["rope"]`).
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.target.segments().size() == 2 &&
          to_lower(assign.target.segments()[0]).find("default") != std::string::npos)
        m_options.add(name, assign.value);
      // `_SUPPORTS_FLEX_ATTENTION = torch.cuda.is_available() and ...`: a flag that says CUDA is there.
      const FactString& value_text = assign.value.value;
      if (assign.ctx.function < 0 && (value_text.find("cuda.is_available") != std::string::npos ||
                                      value_text.find("cuda_capability") != std::string::npos ||
                                      value_text.find("get_device_capability") != std::string::npos))
        m_cuda_flags.insert(name);
      // `self.use_grouped_mm = should_use_grouped_mm()`: a flag computed by a repo CUDA probe.
      if (ends_with(value_text, ")") && m_impl.cuda_probes.count(probe_name(value_text))) m_cuda_flags.insert(name);
      // yacs-style defaults: `_C.SOLVER.AMP.ENABLED = False` is the option `AMP.ENABLED`; so is a project's
      // `def add_densepose_config(cfg): _C = cfg; _C.MODEL.ROI_DENSEPOSE_HEAD.POOLER_TYPE = "ROIAlignV2"` (in a
      // function, only upper-case keys count, and never a test's override).
      if (assign.ctx.klass < 0 && assign.target.segments().size() >= 3 &&
          (assign.ctx.function < 0 || (!m_impl.files[f].is_test && yacs_key(assign.target.dotted()))))
        m_options.add(last_two(assign.target.dotted()), assign.value);
      // ... and a top-level key of one (`_C.THROUGHPUT_MODE = False`, read as `config.THROUGHPUT_MODE`).
      if (assign.ctx.klass < 0 && assign.ctx.function < 0 && assign.target.segments().size() == 2 &&
          yacs_key(assign.target.dotted()) && is_literal(assign.value))
        m_options.add(name, assign.value);
      // `self.use_ema = cfg.get("use_ema", False)`: the attribute and the key share the default.
      if (auto fallback = get_with_default(assign.value.value)) {
        const facts::Argument& value = m_values.keep(std::move(fallback->second));
        m_options.add(name, value);
        m_options.add(fallback->first, value);
      }
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.ctx.branch < 0) {
        const auto env = environment_switch(assign.value.value);
        ModuleConstant& constant = m_module_constants[ConstantKey{f, name}];
        constant.value = env ? &m_values.keep(*env) : &assign.value;
        ++constant.assignments;
        if (env) m_env_constants[ConstantKey{f, name}] = environment_key(assign.value.value);
      }
      // `os.environ["XLA_DOWNCAST_BF16"] = "1"`: the repo sets the variable itself ... unless it sets it on only
      // with a model-parallel scheme (`"1" if cp_world_size > 1 else "0"`), whose degree is 1 by default.
      if (starts_with(assign.target.dotted(), "os.environ.") && !on_with_parallel_degree(assign.value)) {
        m_env_set.insert(last_segment(assign.target.dotted()));
        // (A literal, `os.environ["RWKV_MY_TESTING"] = ''` when a module finds it unset, is one more value.)
        EnvSetters& setters = m_env_setters[last_segment(assign.target.dotted())];
        if (is_literal(assign.value))
          setters.literals.push_back(&assign.value);
        else
          setters.options.push_back(bridged_option(assign.value.value));
      }
    }
    for (const auto& call : file.calls) {
      if (call.callee_text == "setattr" && call.args.size() >= 2) m_outside_attributes.insert(call.args[1].value);
    }
    for (const auto& call : file.calls) {  // `os.environ.setdefault("X", "1")`
      if (call.callee_text == "os.environ.setdefault" && !call.args.empty()) {
        m_env_set.insert(call.args[0].value);
        m_env_setters[call.args[0].value].options.emplace_back();  // a value set by default: no option's copy
      }
    }
    std::unordered_set<std::string_view> sections;
    // An evaluation job's config (`scripts/eval/yamls/dbrx-9b.yaml`) says nothing of what a training run gets.
    const bool evaluation_config = file.kind == discover::FileKind::config && evaluation_launch_path(file.path.view());
    for (const auto& setting : file.settings) {  // `enable_activation_offloading: True` in a shipped recipe
      if (auto value = literal_of(setting.value); value && !evaluation_config) {
        m_settings[last_segment(setting.key)].push_back(*value);
        if (setting.program.empty()) m_config_settings[last_segment(setting.key)].push_back(*value);
      }
      // `eval: {harness: ...}`: the sections a shipped config fills (`eval.harness.tasks` gives `eval`).
      const std::string_view key = setting.key;
      for (auto dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.', dot + 1)) {
        const std::string_view head = key.substr(0, dot);
        const auto start = head.rfind('.');
        sections.emplace(head.substr(start == std::string_view::npos ? 0 : start + 1));
      }
    }
    if (!file.settings.empty()) ++m_config_files;
    for (const auto& section : sections) ++m_section_files[std::string(section)];
    for (const auto& call : file.calls) {
      if (call.method != "add_argument" || call.args.empty() || call.args[0].kind != facts::LiteralKind::string)
        continue;
      std::string flag;
      for (const auto& arg : call.args) {
        if (arg.keyword.empty() && arg.kind == facts::LiteralKind::string && starts_with(arg.value, "--"))
          flag = arg.value;
      }
      if (flag.empty()) continue;
      facts::Argument value;
      value.kind = facts::LiteralKind::null;
      for (const auto& arg : call.args) {
        if (arg.keyword == "dest" && arg.kind == facts::LiteralKind::string) flag = arg.value;
        if (arg.keyword == "default") value = arg;
        if (arg.keyword == "action" && arg.value == "store_true" && value.kind == facts::LiteralKind::null) {
          value.kind = facts::LiteralKind::boolean;
          value.value = "False";
        }
        if (arg.keyword == "action" && arg.value == "store_false") {
          value.kind = facts::LiteralKind::boolean;
          value.value = "True";
        }
      }
      const facts::Argument& kept = m_values.keep(std::move(value));
      m_options.add(option_name_of(flag), kept);
      m_cli_options.add(option_name_of(flag), kept);
      m_file_cli_options[f].add(option_name_of(flag), kept);  // (only files with a parser get an entry)
    }
    for (const auto& fn : file.functions) {
      // `def is_prompt_learning(self)`: a property or method of that name computes the value, no field default.
      if (fn.klass >= 0 && fn.parent < 0 && fn.name != "__init__") m_options.add_computed(fn.name);
      if (fn.name != "__init__" && fn.klass < 0 && fn.parent < 0) continue;
      for (const auto& param : fn.param_defaults) m_options.add(param.keyword, param);  // constructor/config args
    }
    add_filled_fields(file, m_options);
  }

  // A bare name tested in a function: that function's (or an enclosing one's) parameter default,
  // else a module constant of the file.
  bool bare_off_by_default(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term,
                           bool option_like, const facts::BranchInfo& branch, std::size_t f) {
    // `adapter_names = check_adapters_to_merge(self, adapter_names)`: a name the function rebinds to a
    // computed value before the branch no longer holds its parameter's default; a literal rebinding (`if
    // fmt is None: fmt = 2`) is one more value the branch must be off for.
    for (const auto& assign : file.assigns) {
      if (function < 0 || assign.ctx.function != function || assign.target_text != term.name ||
          assign.at.start_byte >= branch.at.start_byte)
        continue;
      // `latent_drop_prob = default(latent_drop_prob, self.latent_drop_prob)`: the parameter (below), else the
      // attribute's option, `latent_drop_prob=0.` in the constructor.
      if (const auto other = fallback_of(assign.value.value, term.name)) {
        if (!last_segment(*other).empty() && other->starts_with("self.") &&
            other->find_first_of("([ ") == std::string::npos && option_unset(last_segment(*other), term))
          continue;
        return false;
      }
      if (!is_literal(assign.value) || !leaves_off(assign.value, term)) return false;
    }
    for (std::int32_t fn = function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
      for (const auto& param : file.functions[static_cast<std::size_t>(fn)].param_defaults) {
        if (param.keyword != term.name) continue;
        if (!is_literal(param)) return false;
        // `convert_padding_direction(..., left_to_right=True)` from the training forward: not the default decides.
        if (m_passed->passed_on_in_training(FunctionId{FileId{static_cast<std::uint32_t>(f)}, fn}, term.name, term))
          return false;
        return leaves_off(param, term);
      }
    }
    // `def main(quantize: bool): if quantize:` called as `main(quantize=args.quantize)`: a parameter
    // without a default named like a command-line option takes that option's default.
    if (function >= 0) {
      const bool is_param = named_parameter(file.functions[static_cast<std::size_t>(function)], term.name);
      if (is_param && m_cli_options.off_by_default(term.name, term)) return true;
      // ... or whose callers pass it down from a parameter whose default leaves the branch off.
      // (A config field's default, or a command-line flag's: `max_tokens_per_chunk=args.loss_tokens_per_chunk`.)
      const auto option_off = [&](std::string_view option) { return option_unset(option, term); };
      if (is_param && !term.equals.empty() &&
          m_passed->off(FunctionId{FileId{static_cast<std::uint32_t>(f)}, function}, term.name, term, option_off))
        return true;
      // ... or whose value the repo's shipped config files give (`"compile": false` in a training-params
      // JSON that a `TrainConfig(**json)` fills): every value they give leaves the branch off.
      if (is_param && settings_leave_off(term)) return true;
    }
    const ConstantKey key{static_cast<std::uint32_t>(f), term.name.str()};
    const auto env = m_env_constants.find(key);
    if (env != m_env_constants.end() && m_env_set.count(env->second)) return false;
    // A module constant counts when it reads as a switch, or as a threshold (`devices = 1` then
    // `DeepSpeedStrategy(...) if devices > 1 else "auto"`: lit-llama's hyperparameters are module constants).
    if (!option_like && !term.greater && env == m_env_constants.end()) return false;
    const auto it = m_module_constants.find(key);
    if (it == m_module_constants.end() || it->second.assignments != 1 || !is_literal(*it->second.value)) return false;
    return leaves_off(*it->second.value, term);
  }

  void judge_file(std::size_t f) {
    const auto& file = m_impl.files[f];
    auto& guards = m_impl.branch_guards[f];
    auto& option = m_option[f];
    guards.assign(file.branches.size(), 0);
    option.assign(file.branches.size(), {});
    // The function a branch sits in: the first fact that points at it tells.
    std::vector<std::int32_t> function_of(file.branches.size(), -1);
    const auto note = [&](const facts::Context& ctx) {
      if (ctx.branch >= 0 && function_of[static_cast<std::size_t>(ctx.branch)] < 0)
        function_of[static_cast<std::size_t>(ctx.branch)] = ctx.function;
    };
    for (const auto& c : file.calls) note(c.ctx);
    for (const auto& c : file.assigns) note(c.ctx);
    for (const auto& c : file.imports) note(c.ctx);  // a branch that only imports (`import deepspeed`)
    for (const auto& c : file.references) note(c.ctx);
    for (const auto& c : file.patterns) note(c.ctx);  // a detector's own branch (Walker::emit_guarded)
    for (std::size_t b = 0; b < file.branches.size(); ++b) {
      const auto& branch = file.branches[b];
      if (branch.else_side) {
        judge_else(f, b, function_of[b]);
        continue;
      }
      if (branch.any_of)
        judge_any(f, b, function_of[b]);
      else
        for (const auto& term : branch.terms) judge_term(f, b, term, function_of[b]);
    }
  }

  // `if args.use_qlora or args.use_paged_optimizer:` runs by default unless every term is an option left off.
  void judge_any(std::size_t f, std::size_t b, std::int32_t function) {
    const auto& branch = m_impl.files[f].branches[b];
    std::string option;
    for (const auto& term : branch.terms) {
      // (`is_deepspeed_zero3_enabled() or os.getenv("ACCELERATE_DEEPSPEED_ZERO_STAGE") == "3"`: two ways of
      // asking for the same DeepSpeed run.)
      const auto off =
          deepspeed_run(term) ? std::optional(describe_term(term)) : opt_in_option(f, branch, term, function);
      if (!off) return;
      option += (option.empty() ? "" : " or ") + *off;
    }
    if (!option.empty()) mark(f, b, option);
  }

  // The option every construction of `klass` in the repo's own code sits under, or "" when one is not
  // gated (or there is none): `plugins = BitsandbytesPrecision(...)` only under `quantize is not None`.
  const std::string& constructed_only_under(const std::string& klass) {
    const auto cached = m_constructed.find(klass);
    if (cached != m_constructed.end()) return cached->second;
    if (!m_calls_indexed) index_calls_by_name();
    std::string out;
    bool all = true;
    if (const auto calls = m_calls_by_name.find(klass); calls != m_calls_by_name.end()) {
      for (const auto& [f, branch] : calls->second) {
        const std::string gate = option_of(f, branch);
        if (gate.empty()) {
          all = false;
          break;
        }
        if (out.empty()) out = gate;
      }
    }
    return m_constructed[klass] = all ? out : std::string();
  }

  /// The calls of the repo's own (non-test) code of the types some `isinstance(x, T)` names, by the last segment of
  /// the callee, in file order: built once, the first time an isinstance branch asks, instead of one pass over all
  /// calls per class. (Only those names: an index of every call would hold a few hundred thousand entries at once.)
  void index_calls_by_name() {
    m_calls_indexed = true;
    for (const auto& file : m_impl.files) {
      for (const auto& call : file.calls) {
        if (call.callee_text == "isinstance" && call.args.size() == 2 && call.args[1].kind == facts::LiteralKind::name)
          m_calls_by_name.try_emplace(last_segment(call.args[1].value));
      }
    }
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& call : file.calls) {
        const FactString& callee = call.callee.empty() ? call.callee_text : call.callee.dotted();
        const auto named = m_calls_by_name.find(last_segment(callee));
        if (named != m_calls_by_name.end()) named->second.emplace_back(f, call.ctx.branch);
      }
    }
  }

  std::string option_of(std::size_t f, std::int32_t branch) const {
    const auto& branches = m_impl.files[f].branches;
    for (std::int32_t b = branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent) {
      if (m_impl.branch_guards[f][static_cast<std::size_t>(b)] & facts::guard_bit(facts::Guard::opt_in))
        return m_option[f][static_cast<std::size_t>(b)];
    }
    return {};
  }

  // `if isinstance(fabric.strategy.precision, BitsandbytesPrecision):` where the repo builds that
  // plugin only under an opt-in option: the branch is opt-in too, named by that option.
  void judge_isinstance(std::size_t f) {
    const auto& file = m_impl.files[f];
    std::optional<std::vector<const facts::CallFact*>> isinstance_calls;  // the file's, found on first need
    for (std::size_t b = 0; b < file.branches.size(); ++b) {
      const auto& branch = file.branches[b];
      const bool tests_type = std::any_of(branch.terms.begin(), branch.terms.end(), [](const facts::ConditionTerm& t) {
        return t.name == "isinstance()" && !t.negated;
      });
      if (branch.else_side || branch.any_of || !tests_type || !m_option[f][b].empty()) continue;
      if (!isinstance_calls) {
        isinstance_calls.emplace();
        for (const auto& call : file.calls) {
          if (call.callee_text == "isinstance" && call.args.size() == 2) isinstance_calls->push_back(&call);
        }
      }
      for (const facts::CallFact* c : *isinstance_calls) {
        const facts::CallFact& call = *c;
        if (call.at.end_byte > branch.at.end_byte || call.at.start_byte < branch.at.start_byte) continue;
        const auto& type = call.args[1];
        if (type.kind != facts::LiteralKind::name) continue;
        // The option that gates every construction of the type names the switch best; else a type from a
        // CUDA-only library (`isinstance(weight, bnb.nn.Params4bit)`): the caller already uses the library.
        std::string gate = constructed_only_under(last_segment(type.value));
        if (gate.empty() && gpu_only_type(type)) gate = "isinstance(" + call.args[0].value + ", " + type.value + ")";
        if (gate.empty()) continue;
        m_impl.branch_guards[f][b] |= facts::guard_bit(facts::Guard::opt_in);
        m_option[f][b] = std::move(gate);
        break;
      }
    }
  }

  /// A type from a CUDA-only library (`bitsandbytes.nn.Params4bit`): constructing it is a GPU-only call
  /// to the lock-in knowledge. Code under `isinstance(x, T)` runs only for objects the caller built
  /// with that library, so the library is the caller's opt-in, not this code's requirement.
  bool gpu_only_type(const facts::Argument& type) const {
    if (type.resolved.empty() || !m_impl.lockin_knowledge.kernel_call) return false;
    facts::CallFact construct;
    construct.callee = type.resolved;
    construct.callee_text = type.value;
    return m_impl.lockin_knowledge.kernel_call(construct);
  }

  void mark(std::size_t f, std::size_t b, const std::string& option) {
    if (!m_option[f][b].empty()) return;
    m_impl.branch_guards[f][b] |= facts::guard_bit(facts::Guard::opt_in);
    m_option[f][b] = option;
  }

  // The else side of `if self.use_mem_eff_path and inference_params is None:` (or of `A if compiler ==
  // "thunder" else B`) runs in training only when an option leaves its default: every term is either an
  // option on by default or decoding state a training run does not have.
  void judge_else(std::size_t f, std::size_t b, std::int32_t function) {
    const auto& branch = m_impl.files[f].branches[b];
    std::string option;
    for (const auto& term : branch.terms) {
      facts::ConditionTerm inverted = term;
      inverted.negated = !term.negated;
      if (branch.any_of) {  // the else of `a or b` needs every term false: decoding state, or one option on
        if (absent_in_training(term)) return void(m_impl.branch_guards[f][b] |= guard_bit(facts::Guard::not_training));
        if (const auto off = term.greater ? std::nullopt : opt_in_option(f, branch, inverted, function))
          return mark(f, b, *off);
        continue;
      }
      if (absent_in_training(term)) continue;
      if (term.greater) return;
      const auto off = opt_in_option(f, branch, inverted, function);
      if (!off) return;
      if (option.empty()) option = *off;
    }
    if (!option.empty()) mark(f, b, option);
  }

  // `if self.to_mixture is not None:` (or `if exists(self.to_mixture):`) where `__init__` binds `self.to_mixture =
  // None` and builds it only under branches off by default (`if mixture_of_softmax:`): that branch's option. Every
  // binding must be seen: `self.x` in the class's methods only, no `obj.x = ...` or `setattr` elsewhere. The None may
  // be bound in another method too, or on the other side of the option's branch (nanotron's `post_init`: `if
  // self.config.s3_upload is not None: self.s3_mover = S3Mover(...) else: self.s3_mover = None`).
  std::optional<std::string> attribute_built_only_under_option(std::size_t f, std::size_t b,
                                                               const facts::ConditionTerm& term,
                                                               std::int32_t function) const {
    const auto& file = m_impl.files[f];
    const std::int32_t klass = file.functions[static_cast<std::size_t>(function)].klass;
    if (klass < 0 || m_outside_attributes.count(std::string(term.name.substr(5)))) return std::nullopt;
    bool bound_none = false;
    std::string option;
    for (const auto& assign : file.assigns) {
      if (assign.target_text != term.name || assign.ctx.klass != klass) continue;
      if (assign.ctx.function < 0) return std::nullopt;
      if (assign.value.kind == facts::LiteralKind::null) {
        bound_none = true;
        continue;
      }
      std::string gate;
      for (std::int32_t at = assign.ctx.branch; at >= 0 && static_cast<std::size_t>(at) < b && gate.empty();
           at = file.branches[static_cast<std::size_t>(at)].parent)
        gate = m_option[f][static_cast<std::size_t>(at)];
      if (gate.empty()) return std::nullopt;
      if (option.empty()) option = gate;
    }
    return bound_none && !option.empty() ? std::optional(option) : std::nullopt;
  }

  void judge_term(std::size_t f, std::size_t b, const facts::ConditionTerm& term, std::int32_t function) {
    auto& guards = m_impl.branch_guards[f];
    const auto& branch = m_impl.files[f].branches[b];
    if (function >= 0 && term.name.starts_with("self.") && term.name.find('.', 5) == std::string::npos &&
        !term.greater && !term.member &&
        ((term.negated && term.equals == "None") || (!term.negated && term.equals.empty()))) {
      if (auto option = attribute_built_only_under_option(f, b, term, function)) return mark(f, b, *option);
    }
    // `if return_idcs:` where every call training makes passes `return_idcs=False`: only generation takes it.
    // So does `if padding_mask is not None:` where every such call leaves out `padding_mask=None`.
    bool omitted = false;
    if ((!term.negated || term.equals == "None") && !term.greater && function >= 0 &&
        term.name.find('.') == std::string::npos &&
        m_passed->off_in_training(FunctionId{FileId{static_cast<std::uint32_t>(f)}, function}, term.name, term,
                                  &omitted))
      // (A parameter training calls leave out is an input a caller may give, not an eval-mode switch: opt-in on the
      // term.)
      return omitted ? mark(f, b, describe_term(term))
                     : void(guards[b] |= facts::guard_bit(facts::Guard::not_training));
    if (term.negated && term.equals.empty()) {  // `if not x:` only on an option that defaults to on
      if (const auto off = opt_in_option(f, branch, term, function)) mark(f, b, *off);
      return;
    }
    if (term.greater && !named_like_period(last_segment(term.name)) &&
        !named_like_parallel_degree(last_segment(term.name)) && !named_like_device_count(last_segment(term.name)) &&
        !named_like_expert_count(last_segment(term.name)) && !named_like_loss_weight(last_segment(term.name)) &&
        !named_like_probability(last_segment(term.name)))
      return;
    const std::string name = last_segment(term.name);
    if (term.equals.empty() && (m_flags.count(name) || named_like_flag(name) || ends_with(term.name, "find_spec()") ||
                                bound_with_flag(m_impl.files[f], term.name, m_flags)))
      guards[b] |= facts::guard_bit(facts::Guard::import_error_fallback);
    const bool probe_call = ends_with(term.name, "()") && m_impl.cuda_probes.count(probe_name(term.name));
    if (term.equals.empty() && (m_cuda_flags.count(name) || probe_call))
      guards[b] |= facts::guard_bit(facts::Guard::cuda_available);
    if (deepspeed_run(term)) return mark(f, b, describe_term(term));
    if (const auto off = opt_in_option(f, branch, term, function)) mark(f, b, *off);
  }

  // `if cfg.get("enable_activation_offloading", False):` / `os.getenv("FORCE_X", "0") == "1"`: the read's own
  // default decides, unless a shipped config file sets the key to a value that takes the branch.
  std::optional<std::string> keyed_read_option(std::size_t f, const facts::BranchInfo& branch,
                                               const facts::ConditionTerm& term, std::int32_t function, int depth) {
    const std::string callee(term.name.substr(0, term.name.size() - 2));
    const bool environment = reads_environment(callee);
    if (!environment && !ends_with(callee, ".get")) return std::nullopt;
    std::size_t skip = same_name_ordinal(branch, term);  // `x.get("a", 5) != 5 or not x.get("b", True)`
    for (const auto& call : m_impl.files[f].calls) {
      if (call.callee_text != callee || call.at.start_byte < branch.at.start_byte ||
          call.at.end_byte > branch.at.end_byte || (skip > 0 && skip-- > 0))
        continue;
      if (call.args.empty() || call.args.size() > 2 || call.args[0].kind != facts::LiteralKind::string)
        return std::nullopt;
      facts::Argument unset;
      unset.kind = facts::LiteralKind::null;
      if (call.args.size() == 2) {
        if (!call.args[1].keyword.empty() || !is_literal(call.args[1])) return std::nullopt;
        unset = call.args[1];
      }
      facts::ConditionTerm keyed = term;
      keyed.name = call.args[0].value;
      // `os.getenv("ACCELERATE_DEEPSPEED_ZERO_STAGE") == "3"`: a variable a DeepSpeed launch sets (accelerate's
      // launcher, or the repo's own code when its config asks for DeepSpeed): a DeepSpeed run, opted into.
      if (environment && !keyed.negated && to_lower(keyed.name).find("deepspeed") != std::string::npos)
        return describe_term(keyed);
      // `os.environ.get("RWKV_FLOAT_MODE", "fp32")` where the launcher copies an option into the variable.
      if (environment && m_env_set.count(keyed.name) > 0)
        return bridged_environment(f, branch, keyed, keyed.name.str(), function, depth);
      if (!leaves_off(unset, keyed) || (!environment && set_on_by_a_config(keyed))) return std::nullopt;
      return describe_term(keyed);
    }
    return std::nullopt;
  }

  // `if is_deepspeed_zero3_enabled():` / `if deepspeed_config() is not None:`: code for a DeepSpeed run,
  // a backend the user opts into.
  bool deepspeed_run(const facts::ConditionTerm& term) const {
    std::string lower = to_lower(term.name);
    std::erase(lower, '_');  // `zero_stage_3 = plugin is not None and plugin.zero_stage == 3`, `is_zero3`
    const bool present = term.equals.empty() ? !term.negated : term.negated && term.equals == "None";
    // So is `if hasattr(param, "ds_numel"):`: DeepSpeed ZeRO-3 gives the parameters it partitions `ds_*`
    // attributes (microsoft/DeepSpeed deepspeed/runtime/zero/partition_parameters.py, _convert_to_deepspeed_param:
    // ds_shape, ds_numel, ds_tensor, ds_status).
    const bool zero_parameter = starts_with(term.name, "hasattr(") && term.name.find(", \"ds_") != std::string::npos;
    // (Not a `deepspeed` switch that defaults to on: gpt-neox's `neox_args.deepspeed`, `deepspeed: bool = True`.)
    return present && !m_options.on_by_default(last_segment(term.name), term) &&
           (lower.find("deepspeed") != std::string::npos || lower.find("zero3") != std::string::npos ||
            lower.find("zerostage3") != std::string::npos || zero_parameter);
  }

  // The option that leaves a branch on `term` off by default, described for the finding, or nothing.
  // (`depth`: how many derived switches the term came through, see derived_switch.)
  std::optional<std::string> opt_in_option(std::size_t f, const facts::BranchInfo& branch,
                                           const facts::ConditionTerm& term, std::int32_t function, int depth = 0) {
    // `cfg["ffn_type"] in ffns_with_megablocks`: judged as a membership test on the names the repo registers
    // into it; one it registers nothing into (an imported constant, a library's registry) decides nothing.
    if (term.registry) {
      const auto members = m_registries.find(term.equals.str());
      if (members == m_registries.end() || members->second.empty()) return std::nullopt;
      facts::ConditionTerm literal = term;
      literal.registry = false;
      literal.equals = FactString(members->second);
      return opt_in_option(f, branch, literal, function, depth);
    }
    // After `assert False` / `raise` / `return` in the same block: no run gets here.
    if (term.name == facts::k_unreachable_term) return describe_term(term);
    const auto& file = m_impl.files[f];
    const std::string name = last_segment(term.name);
    // `if args.rank == 0:`, `local_rank in [-1, 0]`: which process of a run this is, not an option; every
    // distributed run has a rank 0.
    if (names_process_rank(name)) return std::nullopt;
    // `weight.__class__.__name__ == "Params4bit"`: likewise, asked by the class a quantization library builds.
    if (auto quantized = quantized_class_test(file, function, term)) return quantized;
    // `weight.dtype == torch.uint8`: no option, but code only a quantization library's stored weights run.
    if (starts_with(term.equals, "torch."))
      return quantized_storage_test(file, function, term) ? std::optional(term.name + " == " + term.equals.str())
                                                          : std::nullopt;
    if (ends_with(term.name, "()") && !ends_with(term.name, ".startswith()") && !ends_with(term.name, ".endswith()"))
      return keyed_read_option(f, branch, term, function, depth);
    // `'mamba' in os.environ["RWKV_MY_TESTING"]` where the launcher sets `os.environ["RWKV_MY_TESTING"] =
    // args.my_testing`: the variable carries that option, so the option's defaults decide.
    if (starts_with(term.name, "os.environ.") && term.name.find('.', 11) == std::string::npos)
      return bridged_environment(f, branch, term, term.name.substr(11), function, depth);
    // `_dump = os.environ.get("LOGIT_DUMP")` and then `if _dump is not None:`: the variable decides.
    if (const auto env = environment_local(file, function, branch, term, m_env_set)) return *env;
    // `ao = self.cfg.activation_offloading` then `if ao == "hidden_states":`: a local copy of an option
    // read, bound once in the function before the branch, is judged as that read.
    // ... and so is `self.rope_fusion` bound from `neox_args.rope_fusion` of an untyped parameter.
    // (`self.use_vllm` of a parameter typed as a repo config class: that class's field, below.)
    const auto scoped = attribute_default(f, function, term.name);
    auto read = local_copy_of_read(file, function, branch, term);
    if (!read && !scoped) read = attribute_copy_of_read(file, function, term);
    if (read) {
      facts::ConditionTerm copied = term;
      // An element of a configured list (`attention_config[i] == "rwkv"`): an unset list (None) holds no
      // such element, so an equality or membership test is off; a negated one is no opt-in, and a list
      // default is no literal, so the option's defaults decide nothing then.
      const auto element = element_read_base(*read);
      if (element && (term.negated || term.greater || term.equals.empty())) return std::nullopt;
      // ... unless a shipped config lists the value (`"attention_config": [[["flash"], 12]]`).
      if (element) {
        facts::ConditionTerm keyed = term;
        keyed.name = FactString(last_segment(*element));
        if (set_on_by_a_config(keyed)) return std::nullopt;
      }
      copied.name = FactString(element ? *element : *read);
      auto described = opt_in_option(f, branch, copied, function, depth);
      if (described && element && starts_with(*described, *element))
        described = *read + described->substr(element->size());
      return described;
    }
    // `if self.use_apex:` after `self.use_apex = False`, turned on only under `if args.fp16 and ...:` (HF Trainer).
    if (!scoped) {
      if (auto gate = switch_gate(f, term, function, depth)) return gate;
    }
    // `self.use_flash_attention = self.attention_type == "flash"` then `if self.use_flash_attention:`.
    if (!scoped) {
      if (const auto compared = attribute_comparison(file, function, term)) {
        if (compared->name != term.name) return opt_in_option(f, branch, *compared, function, depth);
      }
    }
    // `if not use_cache:`: a decoding switch that training turns off by hand is no option.
    if (term.negated && term.equals.empty() && to_lower(name).find("cache") != std::string::npos) return std::nullopt;
    // `if args.model_name_or_path:`: the model a run trains is always given, whatever the flag's default.
    if (term.equals.empty() && !term.greater && term.name.find('.') != std::string::npos && names_model_input(name))
      return std::nullopt;
    // `if unet.self_cond and random() < 0.5:`, `if self.net.self_cond:`: a switch read off another object (not a
    // config's field) that every repo class taking it as a boolean constructor switch leaves off.
    if (!scoped && term.equals.empty() && !term.greater && term.name.find('.') != std::string::npos &&
        !ends_with(term.name, "()") && !config_receiver(term.name) &&
        std::count(term.name.begin(), term.name.end(), '.') <= 2 &&
        !(starts_with(term.name, "self.") && std::count(term.name.begin(), term.name.end(), '.') == 1)) {
      if (const auto held = m_constructor_switches->find(m_switched_on, name); held && leaves_off(*held, term)) {
        facts::ConditionTerm keyed = term;
        keyed.name = FactString(name);
        if (!set_on_by_a_config(keyed)) return describe_term(term);
      }
    }
    // `if config.actor_rollout_ref.actor.strategy == "megatron":` under `@hydra.main(config_name="ppo_trainer")`:
    // the default config's value decides (an alternative shipped config that sets it is a user's choice).
    if (!term.greater && config_receiver(term.name)) {
      if (const auto held = hydra_default(m_hydra_defaults, term.name.view())) {
        if (!leaves_off(*held, term)) return std::nullopt;
        return describe_term(term);
      }
    }
    const bool constant_false = term.name == "False" || term.name == "None" || term.name == "0";
    const bool dotted = term.name.find('.') != std::string::npos && !ends_with(term.name, "()");
    // `self.use_vllm` bound from `args.use_vllm` of a repo config class: that class's default decides,
    // not every same-named option of the repo (another script's `--use_vllm` defaulting to True).
    if (scoped) {
      if (!is_literal(*scoped) || !leaves_off(*scoped, term)) return std::nullopt;
      // ... unless a shipped config sets the key (`fused_dropout_add_ln: True` in an experiment recipe).
      facts::ConditionTerm keyed = term;
      keyed.name = FactString(name);
      if (set_on_by_a_config(keyed)) return std::nullopt;
      return describe_term(term);
    }
    // (Known exactly, so it decides before the name-based filter below: `self.ring_attn_size != 1` after
    // `self.ring_attn_size = getattr(args.ds, "ring_attn_size", 1)`.) `x is not None` / `x != "v"` / `not x`
    // reads as an option only on a switch name, a config object or a parameter typed as a scalar option.
    const bool scalar = !dotted && !term.equals.empty() &&
                        (scalar_option_param(file, function, name) || neutral_default(file, function, term));
    // (`if ring_attn_group is not None:`: a model-parallel scheme's process group exists only when it is on.)
    const bool option_like = term.negated ? named_like_switch(name) || scalar || parallel_group(name)
                                          : !term.equals.empty() || named_like_switch(name);
    // `if max_tokens_per_chunk is not None:` on a parameter with no default that every caller passes an option
    // defaulting to None (`max_tokens_per_chunk=args.loss_tokens_per_chunk`): an option the run leaves unset.
    // (A test of its own: beside other terms, the others name the option better, `sequence_id is not None and
    // attn_uses_sequence_id`.)
    // (A parameter with no default only: one defaulting to None, `attention_mask=None`, is what its callers pass or
    // not, which a model's forward says nothing about.)
    const auto defaulted = [&] {
      const auto& defaults = file.functions[static_cast<std::size_t>(function)].param_defaults;
      return std::any_of(defaults.begin(), defaults.end(),
                         [&](const facts::Argument& p) { return p.keyword == term.name; });
    };
    if (term.negated && term.equals == "None" && !dotted && function >= 0 && !option_like && branch.terms.size() == 1 &&
        named_parameter(file.functions[static_cast<std::size_t>(function)], term.name) && !defaulted()) {
      const auto unset = [&](std::string_view option) { return option_unset(option, term); };
      if (m_passed->off(FunctionId{FileId{static_cast<std::uint32_t>(f)}, function}, term.name, term, unset, true))
        return describe_term(term);
    }
    // `if xformers_att_config is not None:` in a constructor whose parameter defaults to None, where every
    // construction passes an option left unset or leaves the parameter out (off_where_built).
    if (term.negated && term.equals == "None" && !dotted && function >= 0 && !option_like && branch.terms.size() == 1 &&
        defaulted()) {
      const auto unset = [&](std::string_view option) { return option_unset(option, term); };
      if (m_passed->off_where_built(FunctionId{FileId{static_cast<std::uint32_t>(f)}, function}, term.name, term,
                                    unset))
        return describe_term(term);
    }
    // `if max_length is not None: ... else: max_len = max(...)` in a helper whose every call passes a length
    // (nanoVLM's `prepare_batch`, called with `self.max_length` of a collator built with a fixed length): the
    // None side never runs, whatever the default (not a module's forward: its callers are not all seen).
    if (!term.negated && term.equals == "None" && !dotted && function >= 0 && branch.terms.size() == 1 && defaulted()) {
      const auto unset = [&](std::string_view option) { return option_unset(option, term); };
      if (m_passed->off_where_passed(FunctionId{FileId{static_cast<std::uint32_t>(f)}, function}, term.name, term,
                                     unset))
        return describe_term(term);
    }
    if (term.negated && !option_like && !(dotted && option_receiver(term.name))) return std::nullopt;
    // `quantize.startswith("bnb.")` on a parameter that defaults to None is off by default too.
    facts::ConditionTerm receiver_term = term;
    const bool prefix_test = ends_with(term.name, ".startswith()") || ends_with(term.name, ".endswith()");
    if (prefix_test)
      receiver_term = facts::ConditionTerm{FactString(term.name.substr(0, term.name.rfind('.'))), {}, false};
    const bool receiver_is_bare = receiver_term.name.find('.') == std::string::npos;
    // `args.distributed = args.world_size > 1 or args.multiprocessing_distributed` before `if args.distributed:`.
    if (dotted && term.equals.empty() && !term.greater && !term.member && !term.negated) {
      if (auto derived = derived_switch(f, branch, term, function, depth)) return derived;
      if (auto built = switch_from_constructor(f, term, function)) return built;
    }
    const auto own = m_file_cli_options.find(static_cast<std::uint32_t>(f));
    const OptionDefaults* own_cli = own == m_file_cli_options.end() ? nullptr : &own->second;
    const bool off =
        constant_false ||
        // (`args.critic.model_name_or_path`, computed after parsing, is no option whatever default the same-named
        // `--actor.model_name_or_path` has.)
        (dotted
             ? (config_receiver(term.name) || option_like) && !m_options.computed(last_two(term.name)) &&
                   // (`args.world_size` where this file's own parser declares `--world-size`: its default.)
                   (own_cli != nullptr && own_cli->known(name)
                        ? own_cli->off_by_default(name, term)
                        : m_options.off_by_default(last_two(term.name), term) || m_options.off_by_default(name, term) ||
                              // (`use_amp: bool` with no default: every shipped config file gives `"use_amp": false`.)
                              (!m_options.known(name) &&
                               settings_leave_off(facts::ConditionTerm{FactString(name), {}, term.negated})))
         : prefix_test ? receiver_is_bare && bare_off_by_default(file, function, receiver_term, true, branch, f)
                       : bare_off_by_default(file, function, term, option_like, branch, f));
    if (!off) return std::nullopt;
    // `if "deepspeed" in args.strategy:` with `--strategy` defaulting to "auto", where every shipped launch of
    // the script that declares `--strategy` passes `--strategy deepspeed_stage_2`: not what a documented run gets.
    if (dotted && !constant_false && m_launched->on(name, term)) return std::nullopt;
    // `if "SemanticSegmentor" in cfg.MODEL.META_ARCHITECTURE:` where a project's shipped config sets
    // `META_ARCHITECTURE: "SemanticSegmentor"`: a config picks the code, so it is no option off by default.
    if (dotted && (term.contains || term.split_separator != 0)) {
      facts::ConditionTerm keyed = term;
      keyed.name = FactString(name);
      const auto it = m_config_settings.find(name);
      if (it != m_config_settings.end() &&
          std::any_of(it->second.begin(), it->second.end(), [&](const auto& v) { return !leaves_off(v, keyed); }))
        return std::nullopt;
    }
    // `if args.eval is not None:` / `if cfg.eval:` where a shipped config fills an `eval:` section: set there.
    const bool presence =
        !term.greater && term.negated == (term.equals == "None") && (term.equals.empty() || term.equals == "None");
    if (presence && filled_by_most_configs(name)) return std::nullopt;
    return describe_term(prefix_test ? receiver_term : term);
  }

  // An environment variable the repo sets only by copying one option into it (`os.environ["RWKV_MY_TESTING"] =
  // args.my_testing`, or `str(args.ctx_len)`, in every place that sets it): a test of the variable is a test of
  // that option. Described as the option's term and the variable it travels through.
  std::optional<std::string> bridged_environment(std::size_t f, const facts::BranchInfo& branch,
                                                 const facts::ConditionTerm& term, std::string_view variable,
                                                 std::int32_t function, int depth) {
    const auto setters = m_env_setters.find(std::string(variable));
    if (setters == m_env_setters.end() || depth >= 4) return std::nullopt;
    const std::vector<std::string>& options = setters->second.options;
    if (options.empty() || !option_receiver(options.front()) ||
        std::any_of(options.begin(), options.end(), [&](const std::string& o) { return o != options.front(); }))
      return std::nullopt;
    facts::ConditionTerm bridged = term;
    bridged.name = FactString(options.front());
    auto described = opt_in_option(f, branch, bridged, function, depth + 1);
    if (!described) return std::nullopt;
    facts::ConditionTerm keyed = term;
    keyed.name = FactString(variable);
    for (const facts::Argument* value : setters->second.literals) {
      if (!leaves_off(*value, keyed)) return std::nullopt;
    }
    return *described + " (through os.environ[\"" + std::string(variable) + "\"])";
  }

  // The option that keeps a line off, named by the outermost branch around it (`ctx`, in file `f`) whose test is an
  // option off by default; nothing when no branch around it is.
  std::optional<std::string> enclosing_gate(std::size_t f, const facts::Context& ctx, int depth) {
    const auto& in = m_impl.files[f];
    std::optional<std::string> gate;
    for (std::int32_t b = ctx.branch; b >= 0; b = in.branches[static_cast<std::size_t>(b)].parent) {
      const auto& branch = in.branches[static_cast<std::size_t>(b)];
      if (branch.else_side || branch.any_of) continue;
      for (const auto& part : branch.terms) {
        if (auto found = opt_in_option(f, branch, part, ctx.function, depth + 1)) {
          gate = std::move(found);  // the outermost gate names the option a user sets
          break;
        }
      }
    }
    return gate;
  }

  // A switch a setter binds from its parameter is turned on by each call of the setter that passes something
  // other than an off literal: that call must itself sit behind an option off by default, or pass one
  // (`unet.set_use_memory_efficient_attention(args.xformers, False)`). The option, or nothing.
  std::optional<std::string> setter_gate(const SwitchBindings::Setter& setter, const facts::ConditionTerm& term,
                                         int depth) {
    const auto calls = m_setter_calls->calls(setter);
    if (!calls) return std::nullopt;
    // Only the calls a training run makes turn it on for training (kohya-ss/sd-scripts' `sdxl_minimal_inference.py`
    // turns xformers on unconditionally; no training script runs it); in a repo without such calls, all of them.
    const auto in_training = [&](const SetterCall& call) {
      return m_impl.at(function_at(FileId{call.file}, call.call->ctx)).training_reached;
    };
    const bool training_calls = std::any_of(calls->begin(), calls->end(), in_training);
    std::optional<std::string> outermost;
    for (const SetterCall& call : *calls) {
      if (training_calls && !in_training(call)) continue;
      const facts::Argument* value = call.value;
      if (value == nullptr) {  // the parameter's default
        const auto& defaults = setter.method->param_defaults;
        const auto it = std::find_if(defaults.begin(), defaults.end(),
                                     [&](const facts::Argument& p) { return p.keyword == setter.parameter; });
        if (it == defaults.end()) return std::nullopt;
        value = &*it;
      }
      if (is_literal(*value) && leaves_off(*value, term)) continue;
      auto gate = enclosing_gate(call.file, call.call->ctx, depth);
      if (!gate && (value->kind == facts::LiteralKind::name || value->kind == facts::LiteralKind::other) &&
          is_name_chain(value->value.view())) {
        const facts::ConditionTerm passed{value->value, {}, false};
        const auto& file = m_impl.files[call.file];
        const facts::BranchInfo& branch =
            call.call->ctx.branch >= 0 ? file.branches[static_cast<std::size_t>(call.call->ctx.branch)] : m_no_branch;
        gate = opt_in_option(call.file, branch, passed, call.call->ctx.function, depth + 1);
      }
      if (!gate) return std::nullopt;
      if (!outermost) outermost = std::move(gate);
    }
    return outermost;
  }

  // A switch attribute the class initialises off and turns on only inside branches: off by default when every
  // branch that turns it on is itself taken only behind an option that is off by default. Described as the
  // attribute and the first such option.
  std::optional<std::string> switch_gate(std::size_t f, const facts::ConditionTerm& term, std::int32_t function,
                                         int depth) {
    if (depth >= 4 || function < 0 || term.negated || term.greater || term.member || !term.equals.empty() ||
        !starts_with(term.name, "self.") || term.name.find('.', 5) != std::string::npos)
      return std::nullopt;
    const auto& file = m_impl.files[f];
    const std::int32_t klass = enclosing_class(file, function);
    if (klass < 0) return std::nullopt;
    // The class and its repo base classes (a `CTCTrainer(Trainer)` tests what `Trainer.__init__` binds).
    bool initialised_off = false;
    std::optional<std::string> outermost;
    std::vector<ClassId> work{ClassId{FileId{static_cast<std::uint32_t>(f)}, klass}};
    for (std::size_t next = 0; next < work.size() && next < 16; ++next) {
      const ClassId at = work[next];
      const auto& in = m_impl.files[at.file.value];
      const auto bindings = switch_bindings(in, at.index, term.name);
      if (!bindings) return std::nullopt;
      initialised_off = initialised_off || bindings->initialised_off;
      // Every branch that turns it on must itself be taken only behind an option that is off by default.
      for (const facts::AssignFact* on : bindings->turned_on) {
        auto gate = enclosing_gate(at.file.value, on->ctx, depth);
        if (!gate) return std::nullopt;
        if (!outermost) outermost = std::move(gate);
      }
      // ... and so must every call of a setter that binds it (`set_use_memory_efficient_attention(True, False)`).
      for (const auto& setter : bindings->setters) {
        auto gate = setter_gate(setter, term, depth);
        if (!gate) return std::nullopt;
        if (!outermost) outermost = std::move(gate);
      }
      const auto& info = in.classes[static_cast<std::size_t>(at.index)];
      for (std::size_t b = 0; b < info.bases.size(); ++b) {
        if (const auto base = m_impl.symbols->base_class(at, b)) work.push_back(*base);
      }
    }
    if (!initialised_off || !outermost) return std::nullopt;
    return term.name.str() + " (set only when " + *outermost + ")";
  }

  void index_derived() {
    for (const auto& file : m_impl.files) {
      for (const auto& assign : file.assigns) {
        const std::string_view text = assign.value.value;
        if (assign.value.kind != facts::LiteralKind::other || assign.value.conditional ||
            std::string_view(assign.target_text).find('.') == std::string_view::npos ||
            (text.find(" or ") == std::string_view::npos && text.find(" and ") == std::string_view::npos))
          continue;
        m_derived[assign.target_text.str()].push_back(&assign);
      }
    }
  }

  // `self.use_xformers = xformers_att_config is not None` in `__init__` (fairseq's MultiheadAttention), then
  // `if self.use_xformers:` in any method: the constructor parameter decides, judged at the class's
  // constructions (PassedOptions::off_where_built). The class's methods bind the attribute once, and no code
  // outside sets it.
  std::optional<std::string> switch_from_constructor(std::size_t f, const facts::ConditionTerm& term,
                                                     std::int32_t function) const {
    const std::string_view name = term.name;
    if (!starts_with(name, "self.") || name.find('.', 5) != std::string_view::npos ||
        m_outside_attributes.count(std::string(name.substr(5))))
      return std::nullopt;
    const auto& file = m_impl.files[f];
    const std::int32_t klass = enclosing_class(file, function);
    if (klass < 0) return std::nullopt;
    const facts::AssignFact* binding = option_values::sole_init_binding(file, klass, name);
    if (binding == nullptr) return std::nullopt;
    const std::string_view text = binding->value.value;
    bool is_not = true;
    auto cut = text.find(" is not None");
    if (cut == std::string_view::npos) {
      is_not = false;
      cut = text.find(" is None");
    }
    const std::string_view parameter = text.substr(0, cut);
    if (cut == std::string_view::npos || text.substr(cut) != (is_not ? " is not None" : " is None") ||
        !is_identifier(parameter))
      return std::nullopt;
    facts::ConditionTerm tested;
    tested.name = FactString(std::string(parameter));
    tested.equals = FactString(std::string("None"));
    tested.negated = is_not;
    const auto unset = [&](std::string_view option) { return option_unset(option, tested); };
    if (!m_passed->off_where_built(FunctionId{FileId{static_cast<std::uint32_t>(f)}, binding->ctx.function}, parameter,
                                   tested, unset))
      return std::nullopt;
    return describe_term(tested);
  }

  // A switch the repo computes once from other options (`args.distributed = args.world_size > 1 or
  // args.multiprocessing_distributed`, the pytorch/examples idiom): off by default when every part of the `or`
  // is (or, for an `and`, one part is), each judged like a branch's term; described as the assignment.
  std::optional<std::string> derived_switch(std::size_t f, const facts::BranchInfo& branch,
                                            const facts::ConditionTerm& term, std::int32_t function, int depth) {
    const auto it = m_derived.find(term.name.str());
    if (it == m_derived.end() || it->second.size() != 1) return std::nullopt;
    // A part may be derived in turn (`args.a = args.b or x`, `args.b = args.a and y`): a few levels, no cycle.
    if (depth >= 4) return std::nullopt;
    const std::string_view text = it->second.front()->value.value;
    if (text.find_first_of("()[]") != std::string_view::npos) return std::nullopt;
    const bool any = text.find(" or ") != std::string_view::npos;
    if (any && text.find(" and ") != std::string_view::npos) return std::nullopt;
    const std::string_view sep = any ? " or " : " and ";
    std::size_t off_parts = 0, parts = 0;
    for (std::string_view rest = text; !rest.empty();) {
      const auto cut = rest.find(sep);
      std::string_view part = trim(rest.substr(0, cut));
      rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + sep.size());
      facts::ConditionTerm t;
      if (starts_with(part, "not ")) {
        t.negated = true;
        part = trim(part.substr(4));
      }
      if (const auto gt = part.find(" > "); gt != std::string_view::npos && !t.negated) {
        t.greater = true;
        t.equals = FactString(std::string(trim(part.substr(gt + 3))));
        part = trim(part.substr(0, gt));
      }
      if (part.empty() || part.find(' ') != std::string_view::npos || part.find('.') == std::string_view::npos)
        return std::nullopt;
      t.name = FactString(std::string(part));
      ++parts;
      if (opt_in_option(f, branch, t, function, depth + 1)) ++off_parts;
    }
    const bool off = any ? off_parts == parts : off_parts > 0;
    if (!off || parts < 2) return std::nullopt;
    return term.name.str() + " = " + std::string(text);
  }

  // The default of `self.attr` in a method of class K when K's methods bind it from a parameter typed
  // with a repo class (`self.use_vllm = args.use_vllm` with `args: IWOPDConfig`): that class's (or a
  // repo base class's) field default. Nothing when the binding or the type is not found.
  std::optional<facts::Argument> attribute_default(std::size_t f, std::int32_t function,
                                                   const std::string& name) const {
    if (function < 0 || !starts_with(name, "self.")) return std::nullopt;
    const std::string attribute = name.substr(5);
    if (attribute.find('.') != std::string::npos) return std::nullopt;
    const auto& file = m_impl.files[f];
    const std::int32_t klass = enclosing_class(file, function);
    if (klass < 0) return std::nullopt;
    for (const auto& assign : file.assigns) {
      if (assign.target_text != name || assign.ctx.function < 0) continue;
      const auto& method = file.functions[static_cast<std::size_t>(assign.ctx.function)];
      const FactString& value = assign.value.value;  // "args.use_vllm"
      // `self.ring_attn_size = getattr(args.ds, "ring_attn_size", 1)`: the read's own default.
      if (file.functions[static_cast<std::size_t>(assign.ctx.function)].klass == klass &&
          starts_with(value, "getattr(") && ends_with(value, ")")) {
        const auto comma = value.rfind(',');
        const auto first = value.find(',');
        if (comma != std::string::npos && first != comma) {
          if (auto fallback = literal_of(trim(std::string_view(value).substr(comma + 1, value.size() - comma - 2))))
            return fallback;
        }
        continue;
      }
      // `self._pad_to_longest = pad_to_longest` with `pad_to_longest: bool = False` in the signature: a boolean
      // constructor switch, when the class binds the attribute nowhere else.
      if (method.klass == klass && assign.value.kind == facts::LiteralKind::name &&
          value.find('.') == std::string::npos) {
        const auto param = std::find_if(method.param_defaults.begin(), method.param_defaults.end(),
                                        [&](const facts::Argument& p) { return p.keyword == value; });
        const bool sole = std::none_of(file.assigns.begin(), file.assigns.end(), [&](const facts::AssignFact& other) {
          return &other != &assign && other.target_text == name && other.ctx.klass == klass;
        });
        if (param == method.param_defaults.end() || !sole) continue;
        const std::string cls = file.classes[static_cast<std::size_t>(klass)].name.str();
        // (Its position among the arguments a construction passes: the parameters after `self`.)
        const std::optional<std::size_t> position = positional_index(method, value);
        // `self.checkpoint_path = checkpoint_path` with `checkpoint_path=None`, where the repo's code builds the class
        // and no construction passes it (none splats, and no repo class extends it, whose `super().__init__` could):
        // the attribute stays None in every run the repo makes.
        if (param->kind == facts::LiteralKind::null && method.name == "__init__" && m_switched_on.count(cls + ".()") &&
            !m_switched_on.count(cls + ".**") && !m_base_names.count(cls) &&
            !m_switched_on.count(cls + "." + std::string(value) + "=?") &&
            !(position && m_switched_on.count(cls + ".#" + std::to_string(*position) + "=?")))
          return *param;
        if (param->kind != facts::LiteralKind::boolean) continue;
        // ... unless the repo's own code builds the class with the switch on (`Collator(..., pad_to_longest=True)`).
        // ... or the other way round (`Block(..., prenorm=False)`): then both values run somewhere, and the
        // attribute is no opt-in either way (a value that is no literal says so).
        const std::string other = param->value == "False" ? "True" : "False";
        const bool passed_other =
            m_switched_on.count(cls + "." + std::string(value) + "=" + other) ||
            (position && m_switched_on.count(cls + ".#" + std::to_string(*position) + "=" + other));
        if (passed_other) {
          facts::Argument either = *param;
          either.kind = facts::LiteralKind::other;
          return either;
        }
        return *param;
      }
      // `self.self_condition = default(self_condition, lambda: self.model.self_condition)` with `self_condition=None`:
      // the fallback below, unless the repo builds the class passing the switch on.
      std::string copied(value.view());
      if (const auto other = fallback_of(value.view(), attribute); other && method.klass == klass) {
        std::string_view fallback = *other;
        if (fallback.starts_with("lambda:")) fallback = trim(fallback.substr(7));
        const std::string cls = file.classes[static_cast<std::size_t>(klass)].name.str();
        if (!m_switched_on.count(cls + "." + attribute + "=True")) copied = std::string(fallback);
      }
      const auto dot = copied.find('.');
      // `self.self_condition = self.model.self_condition` (or `= model.self_condition`) with `model` untyped:
      // the switch of whichever repo class the object is, when every repo class that takes it as a boolean
      // constructor switch (`Unet(self_condition=False)`) leaves it the same way.
      // (Not a config object's field, `self.fp16 = args.fp16`: the config's defaults decide that one.)
      if (method.klass == klass && dot != std::string::npos && ends_with(copied, "." + attribute) &&
          std::count(copied.begin(), copied.end(), '.') <= 2 && !config_receiver(copied) &&
          (starts_with(copied, "self.") || !typed_param(method, copied.substr(0, dot))))
        return m_constructor_switches->find(m_switched_on, attribute);
      if (method.klass != klass || dot == std::string::npos || value.substr(dot + 1) != attribute) continue;
      const std::string param(value.substr(0, dot));
      for (const FactString& text : method.params) {  // "args: IWOPDConfig", "args: Optional[IWOPDConfig] = None"
        const auto colon = text.find(':');
        if (colon == std::string::npos || trim(std::string_view(text).substr(0, colon)) != param) continue;
        std::string_view type = trim(std::string_view(text).substr(
            colon + 1, text.find('=') == std::string::npos ? std::string::npos : text.find('=') - colon - 1));
        if (starts_with(type, "Optional[") && ends_with(type, "]")) type = type.substr(9, type.size() - 10);
        if (const auto bar = type.find('|'); bar != std::string_view::npos) type = trim(type.substr(0, bar));
        const Symbol symbol = m_impl.symbols->lookup_in_file(FileId{static_cast<std::uint32_t>(f)}, type);
        if (symbol.kind == Symbol::Kind::klass) return field_default(symbol.klass, attribute);
      }
    }
    return std::nullopt;
  }

  /// A config class's field default (`use_vllm: bool = field(default=False)`), searched through its repo
  /// base classes breadth-first.
  std::optional<facts::Argument> field_default(ClassId klass, const std::string& field) const {
    std::vector<ClassId> work{klass};
    for (std::size_t next = 0; next < work.size() && next < 16; ++next) {
      const ClassId at = work[next];
      for (const auto& assign : m_impl.files[at.file.value].assigns) {
        if (assign.ctx.function < 0 && assign.ctx.klass == at.index && assign.target_text == field) return assign.value;
      }
      const auto& info = m_impl.files[at.file.value].classes[static_cast<std::size_t>(at.index)];
      for (std::size_t b = 0; b < info.bases.size(); ++b) {
        if (const auto base = m_impl.symbols->base_class(at, b)) work.push_back(*base);
      }
    }
    return std::nullopt;
  }

  // A truth test (`if compile:`) on a key every config file of the repo gives a false boolean. Only
  // switches: a compared name (`task_type == "scienceqa"`) collides with unrelated keys (an adapter
  // config's `"task_type": "CAUSAL_LM"`).
  bool settings_leave_off(const facts::ConditionTerm& term) const {
    if (!term.equals.empty() || term.negated) return false;
    const auto it = m_settings.find(term.name);
    return it != m_settings.end() && !it->second.empty() &&
           std::all_of(it->second.begin(), it->second.end(), [&](const facts::Argument& v) {
             return v.kind == facts::LiteralKind::boolean && leaves_off(v, term);
           });
  }

  // A shipped config file (a torchtune recipe) that sets the key a `cfg.get(key, default)` reads so that the
  // branch runs: the read's default is not what whoever trains with that config gets.
  // A section most shipped configs fill is set in a run (lingua's `eval:`, in 9 of its 11 configs); one a
  // single recipe fills is that recipe's choice (a QLoRA example's `quant_config:`).
  bool filled_by_most_configs(const std::string& section) const {
    const auto it = m_section_files.find(section);
    return it != m_section_files.end() && it->second * 2 > m_config_files;
  }

  bool set_on_by_a_config(const facts::ConditionTerm& term) const {
    const auto it = m_settings.find(term.name);
    if (it == m_settings.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const facts::Argument& v) { return !leaves_off(v, term); });
  }

  Program::Impl& m_impl;
  const PassedOptions* m_passed = nullptr;  ///< Impl::call_sites
  std::unordered_set<std::string> m_flags;
  /// Attributes the repo sets on objects other than `self` (`model.to_mixture = ...`, `setattr(m, "x", ...)`).
  std::unordered_set<std::string> m_outside_attributes;
  std::unordered_set<std::string> m_cuda_flags;  ///< module flags computed from a CUDA probe
  /// A module-level name of one file (its index in the repo).
  ValueStore m_values;  ///< declared before the tables that point into it
  OptionDefaults m_options;
  OptionDefaults m_cli_options;  ///< command-line options only (argparse)
  /// Command-line options by the file whose parser declares them: in a folder of example scripts, a script's
  /// `args.world_size` is its own `--world-size` (default -1), not another script's (default 2).
  std::unordered_map<std::uint32_t, OptionDefaults> m_file_cli_options;
  std::optional<LaunchedOptions> m_launched;  ///< built in run(), after the command-line options
  /// "Collator.pad_to_longest=True", "Collator.#2=False": a boolean literal the repo's non-test code passes to a
  /// callee of that name, by keyword or by position.
  std::unordered_set<std::string> m_switched_on;  ///< program/option_tables: constructor_arguments
  std::unordered_set<std::string> m_base_names;   ///< the last names of every repo class's bases
  std::optional<ConstructorSwitches> m_constructor_switches;
  std::optional<SetterCalls> m_setter_calls;
  const facts::BranchInfo m_no_branch{};  ///< for a value judged as a test outside any branch (setter_gate)
  /// The settings of the config files `@hydra.main(config_name=...)` names (program/config_defaults).
  HydraDefaults m_hydra_defaults;
  std::unordered_map<ConstantKey, ModuleConstant, ConstantKeyHash> m_module_constants;
  std::unordered_map<ConstantKey, std::string, ConstantKeyHash> m_env_constants;  ///< the variable a constant reads
  std::unordered_set<std::string> m_env_set;  ///< environment variables the repo's Python sets
  /// What the places that set a variable put into it: an option copied (its dotted name, "" for any other
  /// computed value) or a literal. A variable every setter fills from one option carries that option.
  struct EnvSetters {
    std::vector<std::string> options;
    std::vector<const facts::Argument*> literals;
  };
  std::unordered_map<std::string, EnvSetters> m_env_setters;
  std::unordered_map<std::string, std::vector<facts::Argument>> m_settings;  ///< config-file values by last key
  /// m_settings of config files only (no launch flags): what a `--config` picks, not what a command line passes.
  std::unordered_map<std::string, std::vector<facts::Argument>> m_config_settings;
  /// The names registered into a registry, by its resolved dotted name (`llmfoundry.layers_registry.
  /// ffns_with_megablocks` → "mb_moe", "mb_dmoe"), joined by k_member_separator.
  std::unordered_map<std::string, std::string> m_registries;
  /// Per section name, how many config files fill it (`eval` of `eval.tasks`), and how many files hold settings.
  std::unordered_map<std::string, std::size_t> m_section_files;
  std::size_t m_config_files = 0;
  std::unordered_map<std::string, std::string> m_constructed;  ///< class name -> the option gating its constructions
  /// last callee segment -> (file, branch) of each call; see index_calls_by_name
  std::unordered_map<std::string, std::vector<std::pair<std::uint32_t, std::int32_t>>> m_calls_by_name;
  /// Per file, per branch: the option an opt-in branch needs, while the branches are judged (then
  /// Impl::branch_option keeps those that have one).
  std::vector<std::vector<std::string>> m_option;
  bool m_calls_indexed = false;
  /// Dotted targets bound to an `or`/`and` of other values (derived_switch), built on first use.
  std::unordered_map<std::string, std::vector<const facts::AssignFact*>> m_derived;
};

}  // namespace

void compute_branch_guards(Program::Impl& impl) {
  BranchGuards(impl).run();
}

}  // namespace tr2audit::program
