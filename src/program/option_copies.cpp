// Option copies for program/options: a local or an attribute that holds an option's read (`ao =
// self.cfg.activation_offloading`, `self.rope_fusion = neox_args.rope_fusion`), an element of a configured
// list (`neox_args.attention_config[i]`), or an attribute bound to a comparison of one. Pure functions over
// one file's facts.
#include <algorithm>
#include <cctype>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {

std::optional<std::string> sole_dotted_read(const facts::FileFacts& file, std::int32_t function, std::string_view name,
                                            std::uint32_t before) {
  if (function < 0 || !is_identifier(name)) return std::nullopt;
  const auto& fn = file.functions[static_cast<std::size_t>(function)];
  for (const FactString& param : fn.params) {
    if (std::string_view(param).substr(0, param.find_first_of(":= ")) == name) return std::nullopt;
  }
  const facts::AssignFact* bound = sole_binding(file, function, name);
  if (!bound || bound->at.start_byte >= before || bound->value.kind != facts::LiteralKind::name) return std::nullopt;
  for (const auto& call : file.bound_calls) {
    if (call.ctx.function == function && call.target_text == name) return std::nullopt;
  }
  const std::string_view value = bound->value.value;
  if (value.find('.') == std::string_view::npos || value.find_first_of("()[] ") != std::string_view::npos)
    return std::nullopt;
  return std::string(value);
}

// No statement of the function lies between the two lines (only blank lines or comments): a binding on `from` still
// holds on `to`.
bool nothing_between(const facts::FileFacts& file, std::int32_t function, std::uint32_t from, std::uint32_t to) {
  if (to <= from + 1) return true;
  if (to > from + 4) return false;
  const auto inside = [&](const facts::Context& ctx, const Span& at) {
    return ctx.function == function && at.line > from && at.line < to;
  };
  return std::none_of(file.calls.begin(), file.calls.end(), [&](const auto& c) { return inside(c.ctx, c.at); }) &&
         std::none_of(file.assigns.begin(), file.assigns.end(), [&](const auto& a) { return inside(a.ctx, a.at); });
}

std::optional<std::string> element_read_base(std::string_view text) {
  const auto open = text.find('[');
  if (open == std::string_view::npos || open == 0 || !ends_with(text, "]") ||
      text.find('[', open + 1) != std::string_view::npos || text.find(']') + 1 != text.size())
    return std::nullopt;
  const std::string_view base = text.substr(0, open);
  const std::string_view index = text.substr(open + 1, text.size() - open - 2);
  if (base.find('.') == std::string_view::npos || !is_identifier(base.substr(base.rfind('.') + 1)) ||
      base.find_first_of(" ()'\"") != std::string_view::npos || index.empty() ||
      index.find_first_of("'\":") != std::string_view::npos)
    return std::nullopt;
  return std::string(base);
}

// The dotted read a bare local copies (`ao = self.cfg.activation_offloading` before `if ao == ...:`), or the
// element of one it holds (`layer_type = self.neox_args.attention_config[i]` before `if layer_type == ...:`,
// and the `elif`s of that if), as written.
std::optional<std::string> local_copy_of_read(const facts::FileFacts& file, std::int32_t function,
                                              const facts::BranchInfo& branch, const facts::ConditionTerm& term) {
  // The binding must be the statement right before the if: the facts keep no plain local bound to a
  // computed value, so a rebinding between the two could not be seen. An elif's own condition sits under
  // the else sides of the ones before it; the chain starts at the first.
  const facts::AssignFact* bound = function < 0 ? nullptr : sole_binding(file, function, term.name);
  if (!bound) return std::nullopt;
  std::uint32_t if_line = branch.at.line;
  for (std::int32_t up = branch.parent; up >= 0 && static_cast<std::size_t>(up) < file.branches.size();) {
    const facts::BranchInfo& parent = file.branches[static_cast<std::size_t>(up)];
    if (!parent.else_side || parent.at.line > if_line) break;
    if_line = parent.at.line;
    up = parent.parent;
  }
  if (!nothing_between(file, function, bound->at.end_line, if_line)) return std::nullopt;
  if (bound->value.kind == facts::LiteralKind::other && !bound->value.conditional &&
      element_read_base(bound->value.value)) {
    for (const auto& param : file.functions[static_cast<std::size_t>(function)].params) {
      if (std::string_view(param).substr(0, param.find_first_of(":= ")) == term.name) return std::nullopt;
    }
    return bound->value.value.str();
  }
  if (!nothing_between(file, function, bound->at.end_line, branch.at.line)) return std::nullopt;
  return sole_dotted_read(file, function, term.name, branch.at.start_byte);
}

std::optional<facts::ConditionTerm> attribute_comparison(const facts::FileFacts& file, std::int32_t function,
                                                         const facts::ConditionTerm& term) {
  const std::string& name = term.name;
  if (!term.equals.empty() || term.greater || term.member || function < 0 || !starts_with(name, "self.") ||
      name.find('.', 5) != std::string::npos)
    return std::nullopt;
  const std::int32_t klass = enclosing_class(file, function);
  if (klass < 0) return std::nullopt;
  const facts::AssignFact* bound = nullptr;
  for (const auto& assign : file.assigns) {
    if (assign.target_text != name) continue;
    if (bound || assign.ctx.klass != klass || assign.ctx.function < 0) return std::nullopt;
    bound = &assign;
  }
  if (!bound || bound->value.kind != facts::LiteralKind::other || bound->value.conditional) return std::nullopt;
  // `A == "lit"`, `A != "lit"`, `A in ("a", "b")`, `A not in [...]`: A a name or a dotted read.
  const std::string_view text = bound->value.value;
  facts::ConditionTerm out;
  std::size_t op = std::string_view::npos, width = 0;
  for (const std::string_view candidate : {" not in ", " in ", " == ", " != "}) {
    op = text.find(candidate);
    if (op != std::string_view::npos) {
      width = candidate.size();
      out.member = candidate == " not in " || candidate == " in ";
      out.negated = candidate == " not in " || candidate == " != ";
      break;
    }
  }
  if (op == std::string_view::npos) return std::nullopt;
  const std::string_view left = trim(text.substr(0, op));
  std::string_view right = trim(text.substr(op + width));
  if (left.empty() || left.find_first_of(" ()[]'\"") != std::string_view::npos ||
      !is_identifier(left.substr(left.rfind('.') + 1)))
    return std::nullopt;
  if (out.member) {
    if (right.size() < 2 ||
        !((right.front() == '(' && right.back() == ')') || (right.front() == '[' && right.back() == ']')))
      return std::nullopt;
    right = right.substr(1, right.size() - 2);
    std::string values;
    while (!right.empty()) {
      const auto comma = right.find(',');
      const std::string_view item = trim(right.substr(0, comma));
      if (!item.empty()) {
        const auto literal = literal_of(item, true);
        if (!literal) return std::nullopt;
        if (!values.empty()) values += facts::k_member_separator;
        values += literal->value.str();
      }
      if (comma == std::string_view::npos) break;
      right.remove_prefix(comma + 1);
    }
    if (values.empty()) return std::nullopt;
    out.equals = FactString(values);
  } else {
    const auto literal = literal_of(right, true);
    if (!literal) return std::nullopt;
    out.equals = literal->value;
  }
  out.name = FactString(std::string(left));
  if (term.negated) out.negated = !out.negated;  // `if not self.use_flash:`: the comparison's opposite
  return out;
}

// `self.rope_fusion = neox_args.rope_fusion` in the class's methods, and nothing else bound to
// `self.rope_fusion` in the file: the attribute is a copy of that configuration read.
namespace {

// `config.attn_config["rope"]` as the dotted option `config.attn_config.rope`: a chain of names and string
// keys, with no call, index or operator in it.
std::optional<std::string> keyed_read(std::string_view text) {
  if (!ends_with(text, "\"]") && !ends_with(text, "']")) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      out += c;
      ++i;
    } else if (c == '[' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\'')) {
      const char quote = text[i + 1];
      const auto close = text.find(quote, i + 2);
      if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ']' || close == i + 2)
        return std::nullopt;
      const std::string_view key = text.substr(i + 2, close - i - 2);
      if (!std::all_of(key.begin(), key.end(),
                       [](char k) { return std::isalnum(static_cast<unsigned char>(k)) || k == '_'; }))
        return std::nullopt;
      out += '.';
      out += key;
      i = close + 2;
    } else {
      return std::nullopt;
    }
  }
  if (out.empty() || out.front() == '.' || out.find("..") != std::string::npos) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::string> attribute_copy_of_read(const facts::FileFacts& file, std::int32_t function,
                                                  const facts::ConditionTerm& term) {
  const std::string& name = term.name;
  if (function < 0 || !starts_with(name, "self.") || name.find('.', 5) != std::string::npos) return std::nullopt;
  const std::int32_t klass = enclosing_class(file, function);
  if (klass < 0) return std::nullopt;
  std::optional<std::string> read;
  for (const auto& assign : file.assigns) {
    if (assign.target_text != name) continue;
    // `self.num_experts = (neox_args.moe_num_experts if layer_number % k == 0 else 1)`: the read, or a
    // literal that leaves the branch off, so the attribute is on only where the read is (the facts keep
    // the arms whole where the value's text may be cut).
    const auto& arms = assign.value.conditional;
    const auto otherwise = arms ? literal_of(arms->else_value.view()) : std::nullopt;
    // `self.attention_type = neox_args.attention_config[layer_number]`: an element of the read, as written.
    const auto element =
        assign.value.kind == facts::LiteralKind::other && !arms ? element_read_base(assign.value.value) : std::nullopt;
    // `self.rope = config.attn_config["rope"]`: a key of a config's dict, read as the dotted option.
    const auto keyed = assign.value.kind == facts::LiteralKind::other && !arms && !element
                           ? keyed_read(assign.value.value.view())
                           : std::nullopt;
    const std::string value = assign.value.kind == facts::LiteralKind::name ? assign.value.value.str()
                              : element                                     ? assign.value.value.str()
                              : keyed                                       ? *keyed
                              : otherwise && leaves_off(*otherwise, term)   ? arms->then_value.str()
                                                                            : std::string();
    const std::string& base = element ? *element : value;
    const bool copy =
        assign.ctx.function >= 0 && assign.ctx.klass == klass && !starts_with(value, "self.") &&
        base.find_first_of(" ()[]") == std::string::npos &&
        (keyed ? std::count(base.begin(), base.end(), '.') >= 1 : std::count(base.begin(), base.end(), '.') == 1) &&
        config_receiver(base);
    if (!copy || (read && *read != value)) return std::nullopt;
    read = value;
  }
  return read;
}

}  // namespace tr2audit::program::option_values
