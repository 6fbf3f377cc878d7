// Reading option names and values for program/options: what a name says about itself (a switch, a
// period, an availability flag, a config object) and what a default or an environment read leaves a
// branch at. Pure functions over text and literals.
#include "program/option_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {

std::string last_segment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

std::optional<double> number_of(std::string_view text) {
  text = trim(text);
  double out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

bool is_falsy(const facts::Argument& value) {
  using facts::LiteralKind;
  if (value.kind == LiteralKind::null) return true;
  if (value.kind == LiteralKind::boolean) return value.value == "False";
  if (value.kind == LiteralKind::integer) return value.value == "0";
  if (value.kind == LiteralKind::floating) return number_of(value.value) == 0.0;
  if (value.kind == LiteralKind::string) return value.value.empty();
  return false;
}

std::optional<long long> integer_of(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty() || text.size() > 18) return std::nullopt;
  long long out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    out = out * 10 + (c - '0');
  }
  return negative ? -out : out;
}

namespace {
/// `a == b`, or without regard to ASCII case when the term case-folds the tested name (`x.lower() == "adam"`).
bool same_text(std::string_view a, std::string_view b, bool folded) {
  if (!folded) return a == b;
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}
/// A value compared with a term's text. A string default against an enum member (`rl: str = "dpo"` and
/// `cfg.rl is RLType.DPO`, a `str` enum) compares with the member's name, case-folded, as such enums'
/// values are their names in lower case.
bool same_value(std::string_view have, std::string_view want, bool folded) {
  if (names_enum_member(want) && !names_enum_member(have) && !have.empty()) {
    std::string member = to_lower(want.substr(want.rfind('.') + 1));
    std::string value = to_lower(have);
    std::replace(value.begin(), value.end(), '-', '_');
    return member == value;
  }
  // `if norm_type == 2.0:` with `norm_type=2`: numbers compare by value.
  const auto have_number = number_of(have);
  const auto want_number = have_number ? number_of(want) : std::nullopt;
  if (have_number && want_number) return *have_number == *want_number;
  return same_text(have, want, folded);
}
}  // namespace

namespace {
/// The part of a string value a term compares (`opt.split("_")[-1]`): the value itself unless the term splits it;
/// nothing when the value has no such part.
std::optional<std::string_view> compared_part(std::string_view value, const facts::ConditionTerm& term) {
  if (term.split_separator == 0) return value;
  std::vector<std::string_view> parts;
  for (std::size_t from = 0;;) {
    const auto at = value.find(term.split_separator, from);
    parts.push_back(value.substr(from, at == std::string_view::npos ? at : at - from));
    if (at == std::string_view::npos) break;
    from = at + 1;
  }
  const std::int32_t index =
      term.split_part < 0 ? static_cast<std::int32_t>(parts.size()) + term.split_part : term.split_part;
  if (index < 0 || static_cast<std::size_t>(index) >= parts.size()) return std::nullopt;
  return parts[static_cast<std::size_t>(index)];
}
}  // namespace

/// True when a branch on `term` is not taken with `value` as the tested name's value.
bool leaves_off(const facts::Argument& value, const facts::ConditionTerm& term) {
  if (term.split_separator != 0 || term.contains) {  // a string's part, or what it contains
    if (value.kind != facts::LiteralKind::string) return false;
    const auto part = compared_part(value.value.view(), term);
    bool holds = false;
    if (!part) {
      holds = false;  // `IndexError` where the code runs: no branch taken
    } else if (term.contains) {
      const std::string have = term.folded ? to_lower(*part) : std::string(*part);
      holds = have.find(term.folded ? to_lower(term.equals.view()) : term.equals.str()) != std::string::npos;
    } else if (term.member) {
      for (std::size_t from = 0; from <= term.equals.size() && !holds;) {
        const auto at = term.equals.find(facts::k_member_separator, from);
        holds = same_text(*part, term.equals.substr(from, at == std::string::npos ? at : at - from), term.folded);
        if (at == std::string::npos) break;
        from = at + 1;
      }
    } else if (term.equals.empty() || term.greater) {
      return false;
    } else {
      holds = same_text(*part, term.equals.view(), term.folded);
    }
    return term.negated ? holds : !holds;
  }
  if (term.member) {  // `ffn_type in ("moe", "dmoe")` with ffn_type = "mlp"; `not in`: off when it is one of them
    if (!is_literal(value)) return false;
    const std::string_view have =
        value.kind == facts::LiteralKind::null ? std::string_view("None") : value.value.view();
    bool listed = false;
    for (std::size_t from = 0; from <= term.equals.size() && !listed;) {
      const auto at = term.equals.find(facts::k_member_separator, from);
      listed = same_value(have, term.equals.substr(from, at == std::string::npos ? at : at - from), term.folded);
      if (at == std::string::npos) break;
      from = at + 1;
    }
    return term.negated ? listed : !listed;
  }
  if (term.negated) {  // `if quantize is not None:` / `if cfg.attention != "sdpa":` off when the default is that value
    if (term.greater) return false;
    if (term.equals.empty()) return is_literal(value) && !is_falsy(value);  // `if not use_x:` with use_x = True
    return term.equals == "None" ? value.kind == facts::LiteralKind::null
                                 : value.kind != facts::LiteralKind::null &&
                                       same_value(value.value.view(), term.equals.view(), term.folded);
  }
  if (term.greater) {  // `if vis_period > 0:` with vis_period = 0
    // `context_parallel_size: int | None = Field(default=None)`: an unset degree or period is off.
    if (value.kind == facts::LiteralKind::null) return true;
    // ... and a loss weight that defaults to 0.0 (`if self.alpha_mse > 0.0:` with `--alpha_mse` default 0.0).
    const bool numeric = value.kind == facts::LiteralKind::integer || value.kind == facts::LiteralKind::floating;
    const auto have = numeric ? number_of(value.value) : std::nullopt;
    const auto bound = number_of(term.equals);
    return have && bound && *have <= *bound;
  }
  // `if self.hostfile is None:` holds for an unset default (argparse's implicit None has no text).
  if (term.equals == "None") return value.kind != facts::LiteralKind::null;
  return term.equals.empty() ? is_falsy(value) : !same_value(value.value.view(), term.equals.view(), term.folded);
}

namespace {

std::string_view param_name(const FactString& text) {
  return std::string_view(text).substr(0, text.find_first_of(":= "));
}

}  // namespace

bool is_parameter(const facts::FunctionInfo& info, std::string_view name) {
  for (const FactString& text : info.params) {
    if (starts_with(param_name(text), "*")) return false;
    if (param_name(text) == name) return true;
  }
  return false;
}

std::optional<std::size_t> positional_index(const facts::FunctionInfo& info, std::string_view name) {
  std::size_t index = 0;
  std::size_t offset = 0;
  for (const FactString& text : info.params) {
    const std::string_view param = param_name(text);
    if (info.klass >= 0 && index == 0 && (param == "self" || param == "cls")) offset = 1;
    if (starts_with(param, "*")) break;
    if (param == name && index >= offset) return index - offset;
    ++index;
  }
  return std::nullopt;
}

// `if quantize is not None:` on a parameter typed as a choice (`quantize: Literal["bnb.nf4", ...] | None`)
// or a flag (`Optional[bool]`): an optional tensor or name (`mask=None`, `name: str = None`) is an input.
bool scalar_option_param(const facts::FileFacts& file, std::int32_t function, const std::string& name) {
  for (std::int32_t fn = function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
    for (const FactString& text : file.functions[static_cast<std::size_t>(fn)].params) {
      const auto colon = text.find(':');
      if (colon == std::string::npos || text.substr(0, colon) != name) continue;
      const std::string_view type = std::string_view(text).substr(colon + 1);
      return type.find("Literal[") != std::string_view::npos || type.find("bool") != std::string_view::npos;
    }
  }
  return false;
}

bool neutral_default(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term) {
  if (!term.negated || term.equals.empty() || function < 0) return false;
  char* end = nullptr;
  const std::string compared(term.equals.view());
  const double value = std::strtod(compared.c_str(), &end);
  if (end == compared.c_str() || *end != '\0') return false;
  for (const facts::Argument& param : file.functions[static_cast<std::size_t>(function)].param_defaults) {
    if (param.keyword != term.name) continue;
    if (param.kind != facts::LiteralKind::integer && param.kind != facts::LiteralKind::floating) return false;
    const std::string text(param.value.view());
    return std::strtod(text.c_str(), &end) == value && end != text.c_str() && *end == '\0';
  }
  return false;
}

const facts::AssignFact* sole_binding(const facts::FileFacts& file, std::int32_t function, std::string_view name) {
  const facts::AssignFact* bound = nullptr;
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function != function || assign.target_text != name) continue;
    if (bound) return nullptr;
    bound = &assign;
  }
  return bound;
}

std::int32_t enclosing_class(const facts::FileFacts& file, std::int32_t function) {
  std::int32_t klass = -1;
  for (std::int32_t fn = function; fn >= 0 && klass < 0; fn = file.functions[static_cast<std::size_t>(fn)].parent)
    klass = file.functions[static_cast<std::size_t>(fn)].klass;
  return klass;
}

std::optional<SwitchBindings::Setter> setter_binding(const facts::FileFacts& file, const facts::AssignFact& assign) {
  if (assign.ctx.function < 0 || assign.ctx.branch >= 0 || assign.value.kind != facts::LiteralKind::name ||
      !starts_with(assign.target_text, "self.") || assign.target_text.find('.', 5) != std::string::npos)
    return std::nullopt;
  const auto& method = file.functions[static_cast<std::size_t>(assign.ctx.function)];
  if (method.klass < 0 || method.name == "__init__") return std::nullopt;
  const auto position = positional_index(method, assign.value.value.view());
  if (!position) return std::nullopt;
  return SwitchBindings::Setter{&method, assign.value.value.view(), *position};
}

std::optional<SwitchBindings> switch_bindings(const facts::FileFacts& file, std::int32_t klass, std::string_view name) {
  SwitchBindings out;
  std::vector<const facts::BranchInfo*> off_sides;  // `else: self.use_critic = False`
  for (const auto& assign : file.assigns) {
    if (assign.target_text != name || assign.ctx.function < 0 ||
        file.functions[static_cast<std::size_t>(assign.ctx.function)].klass != klass)
      continue;
    if (assign.value.kind != facts::LiteralKind::boolean) {
      // bound from a value: no switch, unless a setter binds it from its parameter (its callers decide)
      const auto setter = setter_binding(file, assign);
      if (!setter) return std::nullopt;
      out.setters.push_back(*setter);
      continue;
    }
    if (assign.value.value == "False") {
      if (assign.ctx.branch >= 0) {
        const auto& branch = file.branches[static_cast<std::size_t>(assign.ctx.branch)];
        if (!branch.else_side) return std::nullopt;  // off only where a test holds: the test decides
        off_sides.push_back(&branch);
        continue;
      }
      out.initialised_off = true;
    } else {
      if (assign.ctx.branch < 0) return std::nullopt;  // turned on unconditionally
      out.turned_on.push_back(&assign);
    }
  }
  // `if config.algorithm.adv_estimator == "gae": self.use_critic = True` / `else: self.use_critic = False`: off
  // unless the test holds, as if initialised off (each off side must pair with a test that turns it on).
  for (const facts::BranchInfo* off : off_sides) {
    const bool paired = std::any_of(out.turned_on.begin(), out.turned_on.end(), [&](const facts::AssignFact* on) {
      const auto& branch = file.branches[static_cast<std::size_t>(on->ctx.branch)];
      return !branch.else_side && branch.at == off->at && branch.parent == off->parent;
    });
    if (!paired) return std::nullopt;
    out.initialised_off = true;
  }
  return out;
}

bool quantized_storage_test(const facts::FileFacts& file, std::int32_t function, const facts::ConditionTerm& term) {
  if (term.negated || (term.equals != "torch.uint8" && term.equals != "torch.int8")) return false;
  const auto weight_dtype = [](std::string_view dotted) {  // "self.linear.weight.data.dtype", "w.dtype"
    if (!ends_with(dotted, ".dtype")) return false;
    const std::string lower = to_lower(dotted.substr(0, dotted.size() - 6));
    const std::string last = last_segment(lower);
    return lower.find("weight") != std::string::npos || lower.find("param") != std::string::npos || last == "w" ||
           last == "qweight";
  };
  if (term.name.find('.') != std::string::npos) return weight_dtype(term.name);
  // A local bound once in the function to a weight's dtype.
  const facts::AssignFact* bound = function < 0 ? nullptr : sole_binding(file, function, term.name);
  return bound && bound->value.kind == facts::LiteralKind::name && weight_dtype(bound->value.value);
}

namespace {
// Classes only a quantization library builds: bitsandbytes' stored weights and layers, HQQ, EETQ, GPTQ/AQLM,
// and bitsandbytes' 8-bit and paged optimizers (HF's `optim="adamw_bnb_8bit"` picks `Adam8bit`; the
// `if optimizer_cls.__name__ == "Adam8bit":` block of `Trainer.create_optimizer` that LLaVA-style trainers copy).
bool quantized_class_name(std::string_view name) {
  for (std::string_view q : {"Params4bit", "Int8Params", "Linear4bit", "Linear8bitLt", "HQQLinear", "EetqLinear",
                             "QuantLinear", "QuantizedLinear"}) {
    if (name == q) return true;
  }
  if (starts_with(name, "Paged") &&
      (name.find("Adam") != std::string_view::npos || name.find("Lion") != std::string_view::npos))
    return true;
  for (std::string_view optimizer :
       {"Adam", "AdamW", "Lion", "SGD", "RMSprop", "Adagrad", "LAMB", "LARS", "AdEMAMix"}) {
    if (name.size() == optimizer.size() + 4 && starts_with(name, optimizer) && ends_with(name, "8bit")) return true;
  }
  return false;
}

// `weight.__class__.__name__`, `type(weight).__name__`, and a class's own `optimizer_cls.__name__`.
bool class_name_read(std::string_view dotted) {
  return ends_with(dotted, ".__name__") && dotted.size() > 9;
}
}  // namespace

std::optional<std::string> quantized_class_test(const facts::FileFacts& file, std::int32_t function,
                                                const facts::ConditionTerm& term) {
  if (term.negated || term.equals.empty()) return std::nullopt;
  const std::string_view values = term.equals;
  for (std::size_t from = 0; from <= values.size();) {
    const auto at = values.find(facts::k_member_separator, from);
    if (!quantized_class_name(values.substr(from, at == std::string_view::npos ? at : at - from))) return std::nullopt;
    if (at == std::string_view::npos || !term.member) break;
    from = at + 1;
  }
  std::string read;
  if (class_name_read(term.name)) {
    read = term.name.str();
  } else if (const facts::AssignFact* bound = function < 0 ? nullptr : sole_binding(file, function, term.name);
             bound && bound->value.kind == facts::LiteralKind::name && class_name_read(bound->value.value)) {
    read = bound->value.value.str();  // `cls_name = weight.__class__.__name__` bound once in the function
  }
  if (read.empty()) return std::nullopt;
  facts::ConditionTerm shown = term;
  shown.name = FactString(read);
  return describe_term(shown);
}

namespace {
/// The tested name as the code writes it: `args.optimizer.lower()` for a case-folded term (`.upper()` when
/// the compared literals hold upper-case letters and no lower-case ones).
std::string folded_name(const facts::ConditionTerm& term) {
  std::string out = term.name.str();
  if (term.folded) {
    const std::string_view values = term.equals;
    const bool upper = std::any_of(values.begin(), values.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) &&
                       std::none_of(values.begin(), values.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    out += upper ? ".upper()" : ".lower()";
  }
  if (term.split_separator != 0)
    out += ".split(\"" + std::string(1, term.split_separator) + "\")[" + std::to_string(term.split_part) + "]";
  return out;
}
}  // namespace

std::string describe_term(const facts::ConditionTerm& term) {
  if (term.name == facts::k_unreachable_term) return std::string(facts::k_unreachable_prefix) + term.equals.str();
  // A string as written, an enum member (`RLType.EBFT`) or a float (`1.0`: the term does not keep the literal's
  // kind, and an environment switch compares with the string "1") bare.
  const auto shown = [](std::string_view value) {
    const std::string text(value);
    char* end = nullptr;
    const bool number =
        text.find('.') != std::string::npos && (std::strtod(text.c_str(), &end), end != text.c_str() && *end == '\0');
    return names_enum_member(value) || number ? text : "\"" + text + "\"";
  };
  if (term.contains) return "\"" + term.equals.str() + (term.negated ? "\" not in " : "\" in ") + folded_name(term);
  if (term.member) {
    std::string values;
    for (std::size_t from = 0; from <= term.equals.size();) {
      const auto at = term.equals.find(facts::k_member_separator, from);
      values +=
          (values.empty() ? "" : ", ") + shown(term.equals.substr(from, at == std::string::npos ? at : at - from));
      if (at == std::string::npos) break;
      from = at + 1;
    }
    return folded_name(term) + (term.negated ? " not in (" : " in (") + values + ")";
  }
  if (term.equals.empty()) return (term.negated ? "not " : "") + term.name;
  if (term.greater) return term.name + " > " + term.equals;
  if (names_enum_member(term.equals))
    return folded_name(term) + (term.negated ? " is not " : " is ") + term.equals.str();
  if (term.negated) return folded_name(term) + (term.equals == "None" ? " is not None" : " != " + shown(term.equals));
  if (term.equals == "None") return folded_name(term) + " is None";  // the else side of `if x is not None:`
  return folded_name(term) + " == " + shown(term.equals);
}

std::size_t same_name_ordinal(const facts::BranchInfo& branch, const facts::ConditionTerm& term) {
  std::size_t before = 0;
  for (const auto& t : branch.terms) {
    if (t.name == term.name && t.equals == term.equals) break;
    before += t.name == term.name;
  }
  return before;
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
  value.value = FactString(rest);
  return std::make_pair(key, value);
}

std::string option_name_of(const std::string& flag) {
  std::string name = flag.substr(flag.rfind('.') == std::string::npos ? 0 : flag.rfind('.') + 1);  // --train.x -> x
  while (!name.empty() && name.front() == '-') name.erase(name.begin());
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

// A literal as written in source or a config file: `"FALSE"`, `'1'`, `True`, `None`, `0`.
std::optional<facts::Argument> literal_of(std::string_view text, bool quoted_only) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  facts::Argument value;
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front()) {
    value.kind = facts::LiteralKind::string;
    value.value = FactString(text.substr(1, text.size() - 2));
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
    value.value = FactString(text);
  } else {
    value.kind = facts::LiteralKind::string;  // an unquoted YAML scalar
    value.value = FactString(text);
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

// `args.my_testing` / `str(args.ctx_len)` as set into an environment variable: the dotted name copied, or "" when
// the value is anything else (a literal, a computation).
std::string bridged_option(std::string_view text) {
  if (starts_with(text, "str(") && ends_with(text, ")")) text = text.substr(4, text.size() - 5);
  if (text.empty() || text.find('.') == std::string_view::npos || std::isdigit(static_cast<unsigned char>(text[0])))
    return {};
  for (const char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return {};
  }
  return std::string(text);
}

std::string environment_key(std::string_view text) {
  const auto paren = text.find('(');
  if (paren == std::string_view::npos) return {};
  const auto end = text.find_first_of(",)", paren);
  const auto key = literal_of(
      text.substr(paren + 1, end == std::string_view::npos ? std::string_view::npos : end - paren - 1), true);
  return key ? key->value : std::string();
}

bool yacs_key(std::string_view dotted) {
  const auto first = dotted.find('.');
  if (first == std::string_view::npos) return false;
  const std::string_view keys = dotted.substr(first + 1);
  bool letter = false;
  for (char c : keys) {
    if (c >= 'a' && c <= 'z') return false;
    letter = letter || (c >= 'A' && c <= 'Z');
  }
  return letter;
}

// Decoding state that is absent in a training run: `inference_params is None` holds there.
bool absent_in_training(const facts::ConditionTerm& term) {
  if (term.negated || term.equals != "None") return false;
  const std::string last = last_segment(term.name);
  return last == "inference_params" || last == "inference_cache" || last.find("kv_cache") != std::string::npos ||
         last.find("past_key_value") != std::string::npos;
}

// `_dump = os.environ.get("LOGIT_DUMP")` before `if _dump is not None:` in the same function.
std::optional<std::optional<std::string>> environment_local(const facts::FileFacts& file, std::int32_t function,
                                                            const facts::BranchInfo& branch,
                                                            const facts::ConditionTerm& term,
                                                            const std::unordered_set<std::string>& set_by_repo) {
  if (function < 0 || term.name.find('.') != std::string::npos) return std::nullopt;
  // `fold = os.environ.get("PTS_FOLD", "0") == "1"` then `if fold:`: the facts keep such a comparison as the
  // local's assign; any other assign (a literal, a second binding) makes it no plain switch.
  const std::size_t assigns =
      static_cast<std::size_t>(std::count_if(file.assigns.begin(), file.assigns.end(), [&](const facts::AssignFact& a) {
        return a.ctx.function == function && a.target_text == term.name;
      }));
  if (assigns > 1) return std::nullopt;
  if (assigns == 1) {
    const facts::AssignFact* bound = sole_binding(file, function, term.name);
    const auto env =
        bound->value.kind == facts::LiteralKind::other ? environment_switch(bound->value.value) : std::nullopt;
    if (!env) return std::nullopt;
    const std::optional<std::string> on;
    if (bound->at.start_byte >= branch.at.start_byte || set_by_repo.count(environment_key(bound->value.value)))
      return on;
    for (const auto& call : file.bound_calls) {
      if (call.ctx.function == function && call.target_text == term.name) return on;
    }
    if (!leaves_off(*env, term)) return on;
    return std::optional<std::string>(bound->value.value.str());
  }
  std::optional<std::optional<std::string>> answer;
  for (const auto& bound : file.bound_calls) {
    if (bound.ctx.function != function || bound.target_text != term.name ||
        bound.call_start_byte >= branch.at.start_byte)
      continue;
    const auto call = std::find_if(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& c) {
      return c.at.start_byte == bound.call_start_byte && c.ctx.function == function;
    });
    if (call == file.calls.end() || !reads_environment(call->callee.dotted()) || call->args.empty() ||
        call->args.size() > 2 || call->args[0].kind != facts::LiteralKind::string || !call->args[0].keyword.empty())
      return std::nullopt;  // bound to another call
    facts::Argument unset;
    unset.kind = facts::LiteralKind::null;
    if (call->args.size() == 2) {
      if (!is_literal(call->args[1])) return std::nullopt;
      unset = call->args[1];
    }
    facts::ConditionTerm keyed = term;
    keyed.name = call->args[0].value;
    const bool off = leaves_off(unset, term) && !set_by_repo.count(keyed.name.str());
    answer = off ? std::optional(describe_term(keyed)) : std::nullopt;
  }
  return answer;
}

const facts::AssignFact* sole_init_binding(const facts::FileFacts& file, std::int32_t klass,
                                           std::string_view attribute) {
  const facts::AssignFact* binding = nullptr;
  for (const auto& assign : file.assigns) {
    if (assign.target_text != attribute || assign.ctx.klass != klass) continue;
    if (binding != nullptr) return nullptr;  // bound twice: not one value
    binding = &assign;
  }
  if (binding == nullptr || binding->ctx.function < 0 || binding->ctx.branch >= 0 ||
      file.functions[static_cast<std::size_t>(binding->ctx.function)].name != "__init__")
    return nullptr;
  return binding;
}

}  // namespace tr2audit::program::option_values
