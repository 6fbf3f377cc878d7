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

bool is_literal_value(const facts::Argument& value) {
  using facts::LiteralKind;
  return value.kind == LiteralKind::null || value.kind == LiteralKind::boolean || value.kind == LiteralKind::integer ||
         value.kind == LiteralKind::string;
}

/// True when a branch on `term` is not taken with `value` as the tested name's value.
bool leaves_off(const facts::Argument& value, const facts::ConditionTerm& term) {
  if (term.negated) {  // `if quantize is not None:` / `if cfg.attention != "sdpa":` off when the default is that value
    if (term.greater) return false;
    if (term.equals.empty()) return is_literal_value(value) && !is_falsy(value);  // `if not use_x:` with use_x = True
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
  void add_computed(const std::string& name) {
    const auto it = m_defaults.find(name);
    if (it != m_defaults.end()) it->second.unknown = true;
    else m_computed.insert(name);
  }
  /// True when every known default leaves a branch on `term` off (and at least one is known).
  bool off_by_default(const std::string& name, const facts::ConditionTerm& term) const {
    const auto it = m_defaults.find(name);
    if (it == m_defaults.end() || it->second.unknown || it->second.values.empty() || m_computed.count(name)) return false;
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
  std::unordered_set<std::string> m_computed;  ///< names of methods and properties
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

// A literal as written in source or a config file: `"FALSE"`, `'1'`, `True`, `None`, `0`.
std::optional<facts::Argument> literal_of(std::string_view text, bool quoted_only = false) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  facts::Argument value;
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front()) {
    value.kind = facts::LiteralKind::string;
    value.value = std::string(text.substr(1, text.size() - 2));
    return value;
  }
  if (quoted_only) return std::nullopt;
  if (text == "True" || text == "False" || text == "true" || text == "false") {
    value.kind = facts::LiteralKind::boolean;
    value.value = text.front() == 'T' || text.front() == 't' ? "True" : "False";
  } else if (text == "None" || text == "null" || text == "~") {
    value.kind = facts::LiteralKind::null;
  } else if (integer_of(text)) {
    value.kind = facts::LiteralKind::integer;
    value.value = std::string(text);
  } else {
    value.kind = facts::LiteralKind::string;  // an unquoted YAML scalar
    value.value = std::string(text);
  }
  return value;
}

// `os.getenv`, `os.environ.get`: an environment variable read, a switch set outside the code.
bool reads_environment(std::string_view callee) {
  return callee == "os.getenv" || callee == "os.environ.get" || callee == "getenv" || callee == "environ.get";
}

// `KEEP_CUDA_BUILD = os.getenv("MAMBA_KEEP_CUDA_BUILD", "FALSE") == "TRUE"`: the constant's value when the
// variable is unset (False here), or nothing when the text is not such a comparison.
std::optional<facts::Argument> environment_switch(std::string_view text) {
  const auto eq = text.find("==");
  const auto paren = text.find('(');
  if (eq == std::string_view::npos || paren == std::string_view::npos || paren > eq) return std::nullopt;
  if (!reads_environment(text.substr(0, paren))) return std::nullopt;
  std::string_view call = text.substr(0, eq);
  while (!call.empty() && call.back() == ' ') call.remove_suffix(1);
  if (call.empty() || call.back() != ')') return std::nullopt;
  std::string_view args = call.substr(paren + 1, call.size() - paren - 2);
  const auto comma = args.find(',');
  if (!literal_of(args.substr(0, comma), true)) return std::nullopt;
  facts::Argument unset;
  unset.kind = facts::LiteralKind::null;
  if (comma != std::string_view::npos) {
    const auto given = literal_of(args.substr(comma + 1), true);
    if (!given) return std::nullopt;
    unset = *given;
  }
  const auto compared = literal_of(text.substr(eq + 2), true);
  if (!compared) return std::nullopt;
  facts::Argument out;
  out.kind = facts::LiteralKind::boolean;
  out.value = unset.kind == facts::LiteralKind::string && unset.value == compared->value ? "True" : "False";
  return out;
}

// Decoding state that is absent in a training run: `inference_params is None` holds there.
bool absent_in_training(const facts::ConditionTerm& term) {
  if (term.negated || term.equals != "None") return false;
  const std::string last = last_segment(term.name);
  return last == "inference_params" || last == "inference_cache" || last.find("kv_cache") != std::string::npos ||
         last.find("past_key_value") != std::string::npos;
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
      if (assign.ctx.function < 0 && assign.ctx.klass < 0 && assign.ctx.branch < 0) {
        const auto env = environment_switch(assign.value.value);
        m_module_constants[file.path + ":" + name].push_back(env ? *env : assign.value);
        if (env) m_env_constants.insert(file.path + ":" + name);
      }
    }
    for (const auto& setting : file.settings) {  // `enable_activation_offloading: True` in a shipped recipe
      if (auto value = literal_of(setting.value)) {
        m_settings[last_segment(setting.key)].push_back(*value);
      }
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
      // `def is_prompt_learning(self)`: a property or method of that name computes the value, no field default.
      if (fn.klass >= 0 && fn.parent < 0 && fn.name != "__init__") m_options.add_computed(fn.name);
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
    const std::string key = file.path + ":" + term.name;
    if (!option_like && !m_env_constants.count(key)) return false;  // a module constant counts when it reads as a switch
    const auto it = m_module_constants.find(key);
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
      if (branch.else_side) {
        judge_else(f, b, function_of[b]);
        continue;
      }
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
    if (term.equals.empty()) return (term.negated ? "not " : "") + term.name;
    if (term.greater) return term.name + " > " + term.equals;
    if (term.negated) return term.name + (term.equals == "None" ? " is not None" : " != \"" + term.equals + "\"");
    return term.name + " == \"" + term.equals + "\"";
  }

  void mark(std::size_t f, std::size_t b, const std::string& option) {
    if (!m_impl.branch_option[f][b].empty()) return;
    m_impl.branch_guards[f][b] |= facts::guard_bit(facts::Guard::opt_in);
    m_impl.branch_option[f][b] = option;
  }

  // The else side of `if self.use_mem_eff_path and inference_params is None:` (or of `A if compiler ==
  // "thunder" else B`) runs in training only when an option leaves its default: every term is either an
  // option on by default or decoding state a training run does not have.
  void judge_else(std::size_t f, std::size_t b, std::int32_t function) {
    const auto& branch = m_impl.files[f].branches[b];
    std::string option;
    for (const auto& term : branch.terms) {
      if (absent_in_training(term)) continue;
      if (term.greater) return;
      facts::ConditionTerm inverted = term;
      inverted.negated = !term.negated;
      const auto off = opt_in_option(f, branch, inverted, function);
      if (!off) return;
      if (option.empty()) option = *off;
    }
    if (!option.empty()) mark(f, b, option);
  }

  void judge_term(std::size_t f, std::size_t b, const facts::ConditionTerm& term, std::int32_t function) {
    auto& guards = m_impl.branch_guards[f];
    const auto& branch = m_impl.files[f].branches[b];
    if (term.negated && term.equals.empty()) {  // `if not x:` only on an option that defaults to on
      if (const auto off = opt_in_option(f, branch, term, function)) mark(f, b, *off);
      return;
    }
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
    if (present && (lower.find("deepspeed") != std::string::npos || lower.find("zero3") != std::string::npos)) {
      mark(f, b, describe(term));
      return;
    }
    if (const auto off = opt_in_option(f, branch, term, function)) mark(f, b, *off);
  }

  // `if cfg.get("enable_activation_offloading", False):` / `os.getenv("FORCE_X", "0") == "1"`: the read's own
  // default decides, unless a shipped config file sets the key to a value that takes the branch.
  std::optional<std::string> keyed_read_option(std::size_t f, const facts::BranchInfo& branch,
                                               const facts::ConditionTerm& term) const {
    const std::string callee = term.name.substr(0, term.name.size() - 2);
    const bool environment = reads_environment(callee);
    if (!environment && !ends_with(callee, ".get")) return std::nullopt;
    for (const auto& call : m_impl.files[f].calls) {
      if (call.callee_text != callee || call.at.start_byte < branch.at.start_byte || call.at.end_byte > branch.at.end_byte)
        continue;
      if (call.args.empty() || call.args.size() > 2 || call.args[0].kind != facts::LiteralKind::string) return std::nullopt;
      facts::Argument unset;
      unset.kind = facts::LiteralKind::null;
      if (call.args.size() == 2) {
        if (!call.args[1].keyword.empty() || !is_literal(call.args[1])) return std::nullopt;
        unset = call.args[1];
      }
      facts::ConditionTerm keyed = term;
      keyed.name = call.args[0].value;
      if (!leaves_off(unset, keyed)) return std::nullopt;
      if (!environment && set_on_by_a_config(keyed)) return std::nullopt;
      return describe(keyed);
    }
    return std::nullopt;
  }

  // The option that leaves a branch on `term` off by default, described for the finding, or nothing.
  std::optional<std::string> opt_in_option(std::size_t f, const facts::BranchInfo& branch,
                                           const facts::ConditionTerm& term, std::int32_t function) {
    const auto& file = m_impl.files[f];
    const std::string name = last_segment(term.name);
    if (ends_with(term.name, "()") && !ends_with(term.name, ".startswith()") && !ends_with(term.name, ".endswith()"))
      return keyed_read_option(f, branch, term);
    // `if not use_cache:`: a decoding switch that training turns off by hand is no option.
    if (term.negated && term.equals.empty() && to_lower(name).find("cache") != std::string::npos) return std::nullopt;
    const bool constant_false = term.name == "False" || term.name == "None" || term.name == "0";
    const bool dotted = term.name.find('.') != std::string::npos && !ends_with(term.name, "()");
    // `x is not None` / `x != "v"` / `not x` reads as an option only on a switch name, a config object or a
    // parameter typed as a scalar option.
    const bool scalar = !dotted && !term.equals.empty() && scalar_option_param(file, function, name);
    const bool option_like = term.negated ? named_like_switch(name) || scalar : !term.equals.empty() || named_like_switch(name);
    if (term.negated && !option_like && !(dotted && config_receiver(term.name) && !starts_with(term.name, "self.")))
      return std::nullopt;
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
                       : bare_off_by_default(file, function, term, option_like));
    if (!off) return std::nullopt;
    return describe(prefix_test ? receiver_term : term);
  }

  // A shipped config file (a torchtune recipe) that sets the key a `cfg.get(key, default)` reads so that the
  // branch runs: the read's default is not what whoever trains with that config gets.
  bool set_on_by_a_config(const facts::ConditionTerm& term) const {
    const auto it = m_settings.find(term.name);
    if (it == m_settings.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const facts::Argument& v) { return !leaves_off(v, term); });
  }

  Program::Impl& m_impl;
  std::unordered_set<std::string> m_flags;
  std::unordered_set<std::string> m_cuda_flags;  ///< module flags computed from a CUDA probe
  OptionDefaults m_options;
  OptionDefaults m_cli_options;  ///< command-line options only (argparse)
  std::unordered_map<std::string, std::vector<facts::Argument>> m_module_constants;
  std::unordered_set<std::string> m_env_constants;  ///< "path:NAME" of constants read from the environment
  std::unordered_map<std::string, std::vector<facts::Argument>> m_settings;  ///< config-file values by last key
  std::unordered_map<std::string, std::string> m_constructed;  ///< class name -> the option gating its constructions
};

}  // namespace

void compute_branch_guards(Program::Impl& impl) {
  BranchGuards(impl).run();
}

}  // namespace tr2audit::program
