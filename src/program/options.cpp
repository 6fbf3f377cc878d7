// Guards only the whole repo can tell, per if/elif branch:
// - availability flags: `if HAS_APEX:` / `if _TRITON_AVAILABLE:` where the flag is set in a
//   try/except ImportError somewhere in the repo (or is named like one), `find_spec(...)` tests;
// - opt-in options: `if config.use_fp8:` / `elif cfg.attention == "flash":` / `if quantize == "bnb.nf4":`
//   where every default the repo gives that option (argparse, dataclass or config-class fields,
//   parameter defaults, module constants) leaves the branch off; `if False:` likewise.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

std::string last_segment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

bool is_falsy(const facts::Argument& value) {
  using facts::LiteralKind;
  if (value.kind == LiteralKind::null) return true;
  if (value.kind == LiteralKind::boolean) return value.value == "False";
  if (value.kind == LiteralKind::integer) return value.value == "0";
  if (value.kind == LiteralKind::string) return value.value.empty();
  return false;
}

std::optional<long long> integer_of(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  long long out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    out = out * 10 + (c - '0');
  }
  return out;
}

/// True when a branch on `term` is not taken with `value` as the tested name's value.
bool leaves_off(const facts::Argument& value, const facts::ConditionTerm& term) {
  if (term.negated) {  // `if quantize is not None:` / `if cfg.attention != "sdpa":` off when the default is that value
    if (term.equals.empty() || term.greater) return false;
    return term.equals == "None" ? value.kind == facts::LiteralKind::null
                                 : value.kind != facts::LiteralKind::null && value.value == term.equals;
  }
  if (term.greater) {  // `if vis_period > 0:` with vis_period = 0
    const auto have = value.kind == facts::LiteralKind::integer ? integer_of(value.value) : std::nullopt;
    const auto bound = integer_of(term.equals);
    return have && bound && *have <= *bound;
  }
  return term.equals.empty() ? is_falsy(value) : value.value != term.equals;
}

bool is_literal(const facts::Argument& value) {
  using facts::LiteralKind;
  return value.kind == LiteralKind::null || value.kind == LiteralKind::boolean || value.kind == LiteralKind::integer ||
         value.kind == LiteralKind::string;
}

// Names availability flags are given: HAS_APEX, _TRITON_AVAILABLE, APEX_OK, has_flash_attn.
bool named_like_flag(std::string_view name) {
  const std::string lower = to_lower(name);
  const std::string_view l = lower;
  const bool availability = ends_with(l, "_available") || ends_with(l, "_installed") || ends_with(l, "_ok");
  const bool has = starts_with(l, "has_") || starts_with(l, "_has_");
  return (availability || has) && l.find("cuda") == std::string_view::npos && l.find("gpu") == std::string_view::npos;
}

// `utils.should_use_grouped_mm(x)` -> "should_use_grouped_mm".
std::string probe_name(std::string_view call_text) {
  const auto paren = call_text.find('(');
  return last_segment(call_text.substr(0, paren));
}

/// Defaults of options seen anywhere in the repo, by option name.
class OptionDefaults {
 public:
  void add(const std::string& name, const facts::Argument& value) {
    if (name.empty()) return;
    auto& slot = m_defaults[name];
    if (!is_literal(value)) {
      slot.unknown = true;
      return;
    }
    slot.values.push_back(value);
  }
  /// True when every known default leaves a branch on `term` off (and at least one is known).
  bool off_by_default(const std::string& name, const facts::ConditionTerm& term) const {
    const auto it = m_defaults.find(name);
    if (it == m_defaults.end() || it->second.unknown || it->second.values.empty()) return false;
    for (const auto& value : it->second.values) {
      if (!leaves_off(value, term)) return false;
    }
    return true;
  }

 private:
  struct Slot {
    std::vector<facts::Argument> values;
    bool unknown = false;
  };
  std::unordered_map<std::string, Slot> m_defaults;
};

// `vis_period`, `eval_every`, `log_interval`, `sample_freq`: a period whose zero default turns a feature off
// (`if self.vis_period > 0:`). Counts such as `world_size > 1` are not options.
bool named_like_period(std::string_view name) {
  const std::string lower = to_lower(name);
  for (std::string_view word : {"period", "every", "interval", "freq"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

// `use_fp8`, `enable_x`, `with_lora`, `do_eval`, `x_enabled`: a name that reads as an on/off option.
// A private attribute reads the same: `self._enable_fp8_training`.
bool named_like_switch(std::string_view name) {
  const std::string lower = to_lower(name);
  std::string_view l = lower;
  while (!l.empty() && l.front() == '_') l.remove_prefix(1);
  return starts_with(l, "use_") || starts_with(l, "enable_") || starts_with(l, "with_") || starts_with(l, "do_") ||
         starts_with(l, "apply_") || ends_with(l, "_enabled");
}

// `config.x`, `cfg.model.x`, `args.x`, `self.hparams.x`: the receiver is a configuration object.
bool config_receiver(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  if (dot == std::string_view::npos) return false;
  const std::string receiver = to_lower(dotted.substr(0, dot));
  for (std::string_view word : {"config", "cfg", "args", "opt", "hparams", "conf", "flags", "params", "settings"}) {
    if (receiver.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string last_two(std::string_view dotted) {
  const auto last = dotted.rfind('.');
  if (last == std::string_view::npos || last == 0) return std::string(dotted);
  const auto before = dotted.rfind('.', last - 1);
  return std::string(dotted.substr(before == std::string_view::npos ? 0 : before + 1));
}

// `cfg.get("use_ema", False)` -> ("use_ema", False); a literal second argument only.
std::optional<std::pair<std::string, facts::Argument>> get_with_default(std::string_view text) {
  const auto get = text.find(".get(");
  if (get == std::string_view::npos || text.back() != ')') return std::nullopt;
  std::string_view args = text.substr(get + 5, text.size() - get - 6);
  if (args.size() < 3 || (args.front() != '"' && args.front() != '\'')) return std::nullopt;
  const auto close = args.find(args.front(), 1);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string key(args.substr(1, close - 1));
  std::string_view rest = args.substr(close + 1);
  while (!rest.empty() && (rest.front() == ',' || rest.front() == ' ')) rest.remove_prefix(1);
  facts::Argument value;
  if (rest == "False" || rest == "True") {
    value.kind = facts::LiteralKind::boolean;
  } else if (rest == "None") {
    value.kind = facts::LiteralKind::null;
  } else if (rest == "0") {
    value.kind = facts::LiteralKind::integer;
  } else {
    return std::nullopt;
  }
  value.value = std::string(rest);
  return std::make_pair(key, value);
}

std::string option_name_of(const std::string& flag) {
  std::string name = flag.substr(flag.rfind('.') == std::string::npos ? 0 : flag.rfind('.') + 1);  // --train.x -> x
  while (!name.empty() && name.front() == '-') name.erase(name.begin());
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

class BranchGuards {
 public:
  explicit BranchGuards(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    for (const auto& file : m_impl.files) collect(file);
    m_impl.branch_guards.resize(m_impl.files.size());
    m_impl.branch_option.resize(m_impl.files.size());
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) judge_file(f);
    for (std::size_t f = 0; f < m_impl.files.size(); ++f) judge_isinstance(f);
  }

 private:
  void collect(const facts::FileFacts& file) {
    for (const auto& assign : file.assigns) {
      const std::string name = last_segment(assign.target.dotted());
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.value.kind == facts::LiteralKind::boolean &&
          (assign.ctx.has(facts::Guard::import_error_fallback) || assign.ctx.has(facts::Guard::except_handler)))
        m_flags.insert(name);
      if (assign.ctx.function < 0 && assign.ctx.klass >= 0) m_options.add(name, assign.value);  // config fields
      // `_SUPPORTS_FLEX_ATTENTION = torch.cuda.is_available() and ...`: a flag that says CUDA is there.
      const std::string& value_text = assign.value.value;
      if (assign.ctx.function < 0 && (value_text.find("cuda.is_available") != std::string::npos ||
                                      value_text.find("cuda_capability") != std::string::npos ||
                                      value_text.find("get_device_capability") != std::string::npos))
        m_cuda_flags.insert(name);
      // `self.use_grouped_mm = should_use_grouped_mm()`: a flag computed by a repo CUDA probe.
      if (ends_with(value_text, ")") && m_impl.cuda_probes.count(probe_name(value_text))) m_cuda_flags.insert(name);
      // yacs-style defaults: `_C.SOLVER.AMP.ENABLED = False` is the option `AMP.ENABLED`.
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.target.segments().size() >= 3)
        m_options.add(last_two(assign.target.dotted()), assign.value);
      // `self.use_ema = cfg.get("use_ema", False)`: the attribute and the key share the default.
      if (auto fallback = get_with_default(assign.value.value)) {
        m_options.add(name, fallback->second);
        m_options.add(fallback->first, fallback->second);
      }
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.ctx.branch < 0)
        m_module_constants[file.path + ":" + name].push_back(assign.value);
    }
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
      m_options.add(option_name_of(flag), value);
      m_cli_options.add(option_name_of(flag), value);
    }
    for (const auto& fn : file.functions) {
      if (fn.name != "__init__" && fn.klass < 0 && fn.parent < 0) continue;
      for (const auto& param : fn.param_defaults) m_options.add(param.keyword, param);  // constructor/config args
    }
  }

  // A bare name tested in a function: that function's (or an enclosing one's) parameter default,
  // else a module constant of the file.
  bool bare_off_by_default(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term,
                           bool option_like) {
    for (std::int32_t fn = function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
      for (const auto& param : file.functions[static_cast<std::size_t>(fn)].param_defaults) {
        if (param.keyword != term.name) continue;
        if (!is_literal(param)) return false;
        return leaves_off(param, term);
      }
    }
    // `def main(quantize: bool): if quantize:` called as `main(quantize=args.quantize)`: a parameter
    // without a default named like a command-line option takes that option's default.
    if (function >= 0) {
      const auto& params = file.functions[static_cast<std::size_t>(function)].params;  // "quantize: bool"
      const bool is_param = std::any_of(params.begin(), params.end(), [&](const std::string& text) {
        return std::string_view(text).substr(0, text.find_first_of(":= ")) == term.name;
      });
      if (is_param && m_cli_options.off_by_default(term.name, term)) return true;
    }
    if (!option_like) return false;  // a module constant counts only when it reads as a switch
    const auto it = m_module_constants.find(file.path + ":" + term.name);
    if (it == m_module_constants.end() || it->second.size() != 1 || !is_literal(it->second.front())) return false;
    return leaves_off(it->second.front(), term);
  }

  void judge_file(std::size_t f) {
    const auto& file = m_impl.files[f];
    auto& guards = m_impl.branch_guards[f];
    auto& option = m_impl.branch_option[f];
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
    for (std::size_t b = 0; b < file.branches.size(); ++b) {
      const auto& branch = file.branches[b];
      if (branch.else_side) continue;
      for (const auto& term : branch.terms) judge_term(f, b, term, function_of[b]);
    }
  }

  // The option every construction of `klass` in the repo's own code sits under, or "" when one is not
  // gated (or there is none): `plugins = BitsandbytesPrecision(...)` only under `quantize is not None`.
  const std::string& constructed_only_under(const std::string& klass) {
    const auto cached = m_constructed.find(klass);
    if (cached != m_constructed.end()) return cached->second;
    std::string out;
    bool all = true;
    for (std::size_t f = 0; f < m_impl.files.size() && all; ++f) {
      const auto& file = m_impl.files[f];
      if (file.is_test) continue;
      for (const auto& call : file.calls) {
        if (last_segment(call.callee.empty() ? call.callee_text : call.callee.dotted()) != klass) continue;
        const std::string gate = option_of(f, call.ctx.branch);
        if (gate.empty()) {
          all = false;
          break;
        }
        if (out.empty()) out = gate;
      }
    }
    return m_constructed[klass] = all ? out : std::string();
  }

  std::string option_of(std::size_t f, std::int32_t branch) const {
    const auto& branches = m_impl.files[f].branches;
    for (std::int32_t b = branch; b >= 0; b = branches[static_cast<std::size_t>(b)].parent) {
      if (m_impl.branch_guards[f][static_cast<std::size_t>(b)] & facts::guard_bit(facts::Guard::opt_in))
        return m_impl.branch_option[f][static_cast<std::size_t>(b)];
    }
    return {};
  }

  // `if isinstance(fabric.strategy.precision, BitsandbytesPrecision):` where the repo builds that
  // plugin only under an opt-in option: the branch is opt-in too, named by that option.
  void judge_isinstance(std::size_t f) {
    const auto& file = m_impl.files[f];
    for (std::size_t b = 0; b < file.branches.size(); ++b) {
      const auto& branch = file.branches[b];
      const bool tests_type = std::any_of(branch.terms.begin(), branch.terms.end(), [](const facts::ConditionTerm& t) {
        return t.name == "isinstance()" && !t.negated;
      });
      if (branch.else_side || !tests_type || !m_impl.branch_option[f][b].empty()) continue;
      for (const auto& call : file.calls) {
        if (call.callee_text != "isinstance" || call.args.size() != 2) continue;
        if (call.at.end_byte > branch.at.end_byte || call.at.start_byte < branch.at.start_byte) continue;
        const auto& type = call.args[1];
        if (type.kind != facts::LiteralKind::name) continue;
        const std::string& gate = constructed_only_under(last_segment(type.value));
        if (gate.empty()) continue;
        m_impl.branch_guards[f][b] |= facts::guard_bit(facts::Guard::opt_in);
        m_impl.branch_option[f][b] = gate;
        break;
      }
    }
  }

  // `if quantize is not None:` on a parameter typed as a choice (`quantize: Literal["bnb.nf4", ...] | None`)
  // or a flag (`Optional[bool]`): an optional tensor or name (`mask=None`, `name: str = None`) is an input.
  static bool scalar_option_param(const facts::FileFacts& file, std::int32_t function, const std::string& name) {
    for (std::int32_t fn = function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
      for (const std::string& text : file.functions[static_cast<std::size_t>(fn)].params) {
        const auto colon = text.find(':');
        if (colon == std::string::npos || text.substr(0, colon) != name) continue;
        const std::string_view type = std::string_view(text).substr(colon + 1);
        return type.find("Literal[") != std::string_view::npos || type.find("bool") != std::string_view::npos;
      }
    }
    return false;
  }

  static std::string describe(const facts::ConditionTerm& term) {
    if (term.equals.empty()) return term.name;
    if (term.greater) return term.name + " > " + term.equals;
    if (term.negated) return term.name + (term.equals == "None" ? " is not None" : " != \"" + term.equals + "\"");
    return term.name + " == \"" + term.equals + "\"";
  }

  void judge_term(std::size_t f, std::size_t b, const facts::ConditionTerm& term, std::int32_t function) {
    const auto& file = m_impl.files[f];
    auto& guards = m_impl.branch_guards[f];
    auto& option = m_impl.branch_option[f];
    if (term.negated && term.equals.empty()) return;  // `if not x:` (negated comparisons are judged)
    if (term.greater && !named_like_period(last_segment(term.name))) return;
    const std::string name = last_segment(term.name);
    if (term.equals.empty() && (m_flags.count(name) || named_like_flag(name) || ends_with(term.name, "find_spec()")))
      guards[b] |= facts::guard_bit(facts::Guard::import_error_fallback);
    const bool probe_call = ends_with(term.name, "()") && m_impl.cuda_probes.count(probe_name(term.name));
    if (term.equals.empty() && (m_cuda_flags.count(name) || probe_call))
      guards[b] |= facts::guard_bit(facts::Guard::cuda_available);
    // `if is_deepspeed_zero3_enabled():` / `if deepspeed_config() is not None:`: code for a DeepSpeed run,
    // a backend the user opts into.
    const std::string lower = to_lower(term.name);
    const bool present = term.equals.empty() ? !term.negated : term.negated && term.equals == "None";
    if (present && (lower.find("deepspeed") != std::string::npos || lower.find("zero3") != std::string::npos) &&
        option[b].empty()) {
      guards[b] |= facts::guard_bit(facts::Guard::opt_in);
      option[b] = describe(term);
      return;
    }
    const bool constant_false = term.name == "False" || term.name == "None" || term.name == "0";
    const bool dotted = term.name.find('.') != std::string::npos && !ends_with(term.name, "()");
    // `x is not None` / `x != "v"` reads as an option only on a switch name, a config object or a
    // parameter typed as a scalar option.
    const bool option_like = term.negated ? named_like_switch(name) || (!dotted && scalar_option_param(file, function, name))
                                          : !term.equals.empty() || named_like_switch(name);
    if (term.negated && !option_like && !(dotted && config_receiver(term.name) && !starts_with(term.name, "self.")))
      return;
    // `quantize.startswith("bnb.")` on a parameter that defaults to None is off by default too.
    facts::ConditionTerm receiver_term = term;
    const bool prefix_test = ends_with(term.name, ".startswith()") || ends_with(term.name, ".endswith()");
    if (prefix_test) receiver_term = facts::ConditionTerm{term.name.substr(0, term.name.rfind('.')), {}, false};
    const bool receiver_is_bare = receiver_term.name.find('.') == std::string::npos;
    const bool off =
        constant_false ||
        (dotted ? (config_receiver(term.name) || option_like) &&
                      (m_options.off_by_default(last_two(term.name), term) || m_options.off_by_default(name, term))
         : prefix_test ? receiver_is_bare && bare_off_by_default(file, function, receiver_term, true)
                       : !ends_with(term.name, "()") && bare_off_by_default(file, function, term, option_like));
    if (off && option[b].empty()) {
      guards[b] |= facts::guard_bit(facts::Guard::opt_in);
      option[b] = describe(prefix_test ? receiver_term : term);
    }
  }

  Program::Impl& m_impl;
  std::unordered_set<std::string> m_flags;
  std::unordered_set<std::string> m_cuda_flags;  ///< module flags computed from a CUDA probe
  OptionDefaults m_options;
  OptionDefaults m_cli_options;  ///< command-line options only (argparse)
  std::unordered_map<std::string, std::vector<facts::Argument>> m_module_constants;
  std::unordered_map<std::string, std::string> m_constructed;  ///< class name -> the option gating its constructions
};

}  // namespace

void compute_branch_guards(Program::Impl& impl) {
  BranchGuards(impl).run();
}

}  // namespace tr2audit::program
