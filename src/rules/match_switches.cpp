// rules/match_switches: two readings of a fact's surroundings that decide a finding's severity, for
// rules::match: a call its own `enabled=` keyword switches off by default, and a library import whose file
// reads only its version metadata.
#include <algorithm>
#include <cctype>

#include "match_detail.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::rules::detail {

/// `import bitsandbytes` whose only uses in the file are its metadata (`bitsandbytes.__version__`, the module
/// handed to a version or hash helper): a benchmark logging package versions. Any call, attribute use
/// (`bnb.nn.Linear8bitLt`), decorator or assignment from it is a real use; so is `from x import y`.
bool metadata_only(const facts::FileFacts& file, const facts::ImportFact& import) {
  if (import.target.dotted() != import.module.dotted() || import.star) return false;
  const std::string_view module = import.target.dotted();
  const auto under = [&](std::string_view name) {
    return name.size() > module.size() && starts_with(name, module) && name[module.size()] == '.';
  };
  const auto dunder = [&](std::string_view name) {
    const std::string_view rest = name.substr(module.size() + 1);
    return rest.size() > 4 && starts_with(rest, "__") && ends_with(rest, "__") &&
           rest.find('.') == std::string_view::npos;
  };
  bool metadata = false;
  for (const auto& ref : file.references) {
    const std::string_view name = ref.name.dotted();
    if (!under(name)) continue;
    if (!dunder(name)) return false;
    metadata = true;
  }
  if (!metadata) return false;
  for (const auto& call : file.calls) {
    const std::string_view callee = call.callee.dotted();
    if (callee == module || under(callee)) return false;
    for (const auto& arg : call.args) {
      if (under(arg.resolved.dotted())) return false;
    }
  }
  for (const auto& assign : file.assigns) {
    if (under(assign.value.resolved.dotted()) || under(assign.target.dotted())) return false;
  }
  for (const auto& decorator : file.decorators) {
    const std::string_view name = decorator.decorator.dotted();
    if (name == module || under(name)) return false;
  }
  return true;
}

std::vector<std::int32_t> base_class_only(const facts::FileFacts& file, const facts::ImportFact& import) {
  if (import.star || import.target.empty() || import.target.dotted() == import.module.dotted()) return {};
  const std::string_view name = import.target.dotted();
  const auto names = [&](std::string_view used) {
    return used == name || (used.size() > name.size() && starts_with(used, name) && used[name.size()] == '.');
  };
  std::vector<std::int32_t> classes;
  for (std::size_t c = 0; c < file.classes.size(); ++c) {
    const auto& bases = file.classes[c].bases;
    if (std::any_of(bases.begin(), bases.end(), [&](const QualifiedName& b) { return names(b.dotted()); }))
      classes.push_back(static_cast<std::int32_t>(c));
  }
  if (classes.empty()) return {};
  for (const auto& ref : file.references) {
    // (The base in the class statement's own header is a reference too.)
    const bool header = ref.ctx.function < 0 && ref.ctx.klass >= 0 &&
                        std::find(classes.begin(), classes.end(), ref.ctx.klass) != classes.end() &&
                        ref.at.line == file.classes[static_cast<std::size_t>(ref.ctx.klass)].at.line;
    if (names(ref.name.dotted()) && !header) return {};
  }
  for (const auto& call : file.calls) {
    if (names(call.callee.dotted())) return {};
    for (const auto& arg : call.args) {
      if (names(arg.resolved.dotted())) return {};
    }
  }
  for (const auto& assign : file.assigns) {
    if (names(assign.value.resolved.dotted()) || names(assign.target.dotted())) return {};
  }
  for (const auto& decorator : file.decorators) {
    if (names(decorator.decorator.dotted())) return {};
  }
  return classes;
}

/// `GradScaler(enabled=(args.dtype == "float16"))` with `--dtype` defaulting to "bfloat16", `autocast(enabled=
/// use_amp)` with `use_amp=False`: the object the call builds is a pass-through unless that option changes.
/// The option's text, or nothing when the call is on by default or its switch is not known.
std::string switched_off(const program::Program& program, program::FileId file, const facts::CallFact& call) {
  const auto arg = std::find_if(call.args.begin(), call.args.end(),
                                [](const facts::Argument& a) { return !a.is_splat && a.keyword == "enabled"; });
  if (arg == call.args.end()) return {};
  const auto default_of = [&](std::string_view name) { return program.default_of(file, call.ctx, name); };
  if (arg->kind == facts::LiteralKind::name && arg->resolved.empty()) {
    const auto fallback = default_of(arg->value);
    const bool off = fallback && ((fallback->kind == facts::LiteralKind::boolean && fallback->value == "False") ||
                                  fallback->kind == facts::LiteralKind::null);
    return off ? std::string(arg->value) : std::string();
  }
  if (arg->kind != facts::LiteralKind::other) return {};
  const std::string_view text = unwrap_parens(arg->value.view());
  const bool equal = text.find(" == ") != std::string_view::npos;
  const auto op = equal ? text.find(" == ") : text.find(" != ");
  if (op == std::string_view::npos) return {};
  const std::string_view name = trim(text.substr(0, op));
  std::string_view literal = trim(text.substr(op + 4));
  const bool dotted = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  if (!dotted || literal.size() < 2 || (literal.front() != '"' && literal.front() != '\'') ||
      literal.back() != literal.front())
    return {};
  literal = literal.substr(1, literal.size() - 2);
  const auto fallback = default_of(name);
  if (!fallback || fallback->kind != facts::LiteralKind::string) return {};
  return (fallback->value.view() == literal) != equal ? std::string(text) : std::string();
}

}  // namespace tr2audit::rules::detail
