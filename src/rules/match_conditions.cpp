// Subject conditions and where/unless predicates of docs/rule-format.md, one fact at a time.
#include <algorithm>

#include "match_detail.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/region.hpp"
#include "vocabulary.hpp"

namespace tr2audit::rules::detail {

namespace {

bool is_kwargs_splat(const facts::Argument& arg) {
  return arg.is_splat && (arg.keyword == "**" || arg.value.rfind("**", 0) == 0);
}

bool literal_matches(const NameMatcher& values, const facts::Argument& arg) {
  if (values.matches(arg.value) || (!arg.resolved.empty() && values.matches(arg.resolved.dotted()))) return true;
  return arg.conditional &&
         (values.matches(arg.conditional->then_value) || values.matches(arg.conditional->else_value));
}

/// The guards of a conditional value that matches on its CUDA side only: the value holds only where the
/// condition (a CUDA check) does, or, after a negated check (`"gloo" if not torch.cuda.is_available() else
/// "nccl"`), where it does not.
std::uint16_t cuda_side_guards(const NameMatcher& values, const facts::Argument& arg) {
  if (!arg.conditional || values.matches(arg.value) || (!arg.resolved.empty() && values.matches(arg.resolved.dotted())))
    return 0;
  const facts::ConditionalValue& c = *arg.conditional;
  const bool negated = c.condition.view().starts_with("not ");
  const bool then_only = values.matches(c.then_value) && !values.matches(c.else_value);
  const bool else_only = values.matches(c.else_value) && !values.matches(c.then_value);
  return (negated ? else_only : then_only) ? c.guards : 0;
}

/// The value a message shows: a conditional's branches say which one runs by default (the else side).
std::string shown_value(const facts::Argument& arg) {
  if (!arg.conditional) return arg.value;
  const facts::ConditionalValue& c = *arg.conditional;
  return "\"" + c.then_value + "\" when `" + c.condition + "`, else \"" + c.else_value +
         "\" (the default where that does not hold)";
}

/// A keyword condition on an argument whose value is a name: judged by the name's default.
bool default_holds(const KeywordCondition& condition, const facts::Argument& arg, std::string& value,
                   ValueDefaults* defaults) {
  if (defaults == nullptr || !defaults->lookup || arg.kind != facts::LiteralKind::name || !arg.resolved.empty())
    return false;
  const std::optional<facts::Argument> fallback = defaults->lookup(arg.value);
  if (!fallback) return false;
  if (literal_matches(condition.values, *fallback)) {
    if (value.empty()) value = fallback->value + " (the default of `" + arg.value + "`)";
    defaults->guards |= cuda_side_guards(condition.values, *fallback);
    return true;
  }
  // Off by default, but a setting the user can turn on: reported as opt-in; unless its type lists the
  // values it takes and none matches (`strategy: Literal["auto", "ddp", "fsdp"]`).
  if (defaults->choices) {
    if (const auto choices = defaults->choices(arg.value);
        choices && std::none_of(choices->begin(), choices->end(),
                                [&](const std::string& choice) { return condition.values.matches(choice); }))
      return false;
  }
  if (defaults->opt_in.empty()) defaults->opt_in = arg.value;
  if (value.empty()) value = arg.value;
  return true;
}

bool keywords_hold(const Conditions& c, std::span<const facts::Argument> args, std::string& value,
                   ValueDefaults* defaults = nullptr) {
  for (const KeywordCondition& condition : c.keywords) {
    const auto hit = std::find_if(args.begin(), args.end(), [&](const facts::Argument& arg) {
      return !arg.is_splat && arg.keyword == condition.keyword &&
             (condition.any_value || literal_matches(condition.values, arg));
    });
    if (hit == args.end()) {
      const auto named = std::find_if(args.begin(), args.end(), [&](const facts::Argument& arg) {
        return !arg.is_splat && arg.keyword == condition.keyword;
      });
      if (named == args.end() || !default_holds(condition, *named, value, defaults)) return false;
      if (defaults != nullptr && defaults->keyword_at.line == 0) defaults->keyword_at = named->at;
      continue;
    }
    if (defaults != nullptr && defaults->keyword_at.line == 0 && !condition.any_value) defaults->keyword_at = hit->at;
    if (defaults != nullptr && !condition.any_value) defaults->guards |= cuda_side_guards(condition.values, *hit);
    if (value.empty()) value = shown_value(*hit);
  }
  for (const std::string& keyword : c.missing_keywords) {
    for (const facts::Argument& arg : args) {
      if (is_kwargs_splat(arg) || (!arg.is_splat && arg.keyword == keyword)) return false;
    }
  }
  return true;
}

/// Positional arguments before the first splat (after a `*args` the indices are unknown).
std::vector<const facts::Argument*> positionals(std::span<const facts::Argument> args, bool& has_splat) {
  std::vector<const facts::Argument*> out;
  has_splat = false;
  for (const facts::Argument& arg : args) {
    if (!arg.keyword.empty() || is_kwargs_splat(arg)) continue;
    if (arg.is_splat) has_splat = true;
    if (!has_splat) out.push_back(&arg);
  }
  return out;
}

bool positional_hold(const Conditions& c, std::span<const facts::Argument> args, std::string& value) {
  bool has_splat = false;
  const std::vector<const facts::Argument*> pos = positionals(args, has_splat);
  for (const PositionalCondition& condition : c.positional) {
    if (condition.index >= pos.size() || !literal_matches(condition.values, *pos[condition.index])) return false;
    if (value.empty()) value = pos[condition.index]->value;
  }
  if ((c.min_args || c.max_args) && has_splat) return false;  // the count is unknown after *args
  if (c.min_args && pos.size() < *c.min_args) return false;
  if (c.max_args && pos.size() > *c.max_args) return false;
  return true;
}

bool flag_holds(const std::optional<bool>& wanted, bool actual) {
  return !wanted || *wanted == actual;
}

/// An external package, or a repo package imported by absolute name from a file outside it (an
/// example or script of the repo using the repo's own library). Relative imports stay inside.
bool imports_other_package(const facts::ImportFact& import, facts::ImportOrigin origin, std::string_view importer) {
  if (origin == facts::ImportOrigin::external) return true;
  if (import.relative_level != 0) return false;
  const std::string_view package = import.module.first_segment();
  const std::string_view own = importer.substr(0, importer.find('.'));
  return !package.empty() && package != own;
}

/// The fact's region is listed. `forward` names a module's forward whoever calls it: a forward reached
/// only from generation, export or tooling code (region `inference`, ...) still holds for it, and the
/// finding keeps that region, so the off-training cap decides its severity (`--include-roles` lifts it).
bool region_holds(const std::bitset<facts::k_region_count>& regions, const program::FileView& view,
                  const facts::Context& ctx, std::uint32_t line) {
  const facts::Region region = view.program.region_at(view.id, ctx, line);
  if (regions.test(static_cast<std::size_t>(region))) return true;
  const bool off_training =
      region == facts::Region::inference || region == facts::Region::export_ || region == facts::Region::tooling;
  return off_training && regions.test(static_cast<std::size_t>(facts::Region::forward)) &&
         facts::region_of(view.facts(), ctx) == facts::Region::forward;
}

/// Each given predicate's truth, in a fixed order; nullopt for those not given.
std::vector<bool> predicate_values(const Predicates& p, const program::FileView& view, const facts::Context& ctx,
                                   std::uint32_t line) {
  const facts::FileFacts& file = view.facts();
  std::vector<bool> out;
  if (p.regions.any()) out.push_back(region_holds(p.regions, view, ctx, line));
  if (p.in_loop) out.push_back((ctx.loop >= 0) == *p.in_loop);
  if (p.in_training_loop) out.push_back(view.program.in_training_loop(view.id, ctx) == *p.in_training_loop);
  if (p.runs_once) out.push_back(view.program.runs_once(view.id, ctx) == *p.runs_once);
  if (p.guards != 0) out.push_back((view.program.guards_at(view.id, ctx) & p.guards) != 0);
  if (p.in_error_region) out.push_back(ctx.in_error_region == *p.in_error_region);
  if (p.in_assert) out.push_back(ctx.in_assert == *p.in_assert);
  if (p.in_decorator) {
    const bool decorator = std::any_of(file.decorators.begin(), file.decorators.end(),
                                       [&](const auto& d) { return d.at.line <= line && line <= d.at.end_line; });
    out.push_back(decorator == *p.in_decorator);
  }
  if (p.in_test) out.push_back(file.is_test == *p.in_test);
  if (p.neuron_stack) out.push_back(view.program.neuron_stack() == *p.neuron_stack);
  if (p.repo_loads_compiled_code) out.push_back(view.program.loads_compiled_code() == *p.repo_loads_compiled_code);
  if (!p.functions.empty()) {
    const std::string qualname = facts::function_qualname(file, ctx);
    out.push_back(std::any_of(p.functions.begin(), p.functions.end(),
                              [&](const std::string& glob) { return glob_match(glob, qualname); }));
  }
  if (!p.paths.empty()) {
    out.push_back(std::any_of(p.paths.begin(), p.paths.end(), [&](const std::string& glob) {
      return discover::path_matches_glob(glob, file.path, false);
    }));
  }
  return out;
}

bool any_argument_matches(const NameMatcher& values, std::span<const facts::Argument> args, std::string* value,
                          std::uint16_t* guards = nullptr) {
  const auto hit =
      std::find_if(args.begin(), args.end(), [&](const facts::Argument& arg) { return literal_matches(values, arg); });
  if (hit != args.end() && value != nullptr && value->empty()) *value = shown_value(*hit);
  if (hit != args.end() && guards != nullptr) *guards |= cuda_side_guards(values, *hit);
  return hit != args.end();
}

/// `backend = "nccl" if has_gpu else "gloo"` then `init_process_group(backend=backend)`: an argument
/// that is a local name holding a matching literal; or an option read whose default is one
/// (`init_process_group(backend=args.dist_backend)` with `--dist-backend` defaulting to "nccl").
bool any_default_matches(const NameMatcher& values, std::span<const facts::Argument> args, std::string& value,
                         ValueDefaults* defaults) {
  if (defaults == nullptr || (!defaults->local && !defaults->lookup)) return false;
  for (const facts::Argument& arg : args) {
    if (arg.is_splat || arg.kind != facts::LiteralKind::name || !arg.resolved.empty()) continue;
    std::optional<facts::Argument> fallback = defaults->local ? defaults->local(arg.value) : std::nullopt;
    const bool option =
        !fallback && defaults->lookup && std::string_view(arg.value).find('.') != std::string_view::npos;
    if (option) fallback = defaults->lookup(arg.value);
    if (!fallback || !literal_matches(values, *fallback)) continue;
    if (value.empty())
      value =
          shown_value(*fallback) + (option ? " (the default of `" : " (the value of `") + std::string(arg.value) + "`)";
    defaults->guards |= cuda_side_guards(values, *fallback);
    if (defaults->keyword_at.line == 0) defaults->keyword_at = arg.at;
    return true;
  }
  return false;
}

}  // namespace

bool call_conditions_hold(const Conditions& c, const facts::CallFact& call, std::string& value,
                          ValueDefaults* defaults) {
  if (!keywords_hold(c, call.args, value, defaults) || !positional_hold(c, call.args, value)) return false;
  if (c.any_argument &&
      !any_argument_matches(*c.any_argument, call.args, &value, defaults != nullptr ? &defaults->guards : nullptr) &&
      !any_default_matches(*c.any_argument, call.args, value, defaults))
    return false;
  if (c.not_argument && any_argument_matches(*c.not_argument, call.args, nullptr)) return false;
  if (!flag_holds(c.item_argument, call.item_argument)) return false;
  const FactString& receiver = call.receiver_callee.dotted();
  if (c.receiver && (receiver.empty() || !c.receiver->matches(receiver))) return false;
  if (c.not_receiver && !receiver.empty() && c.not_receiver->matches(receiver)) return false;
  return true;
}

bool decorator_conditions_hold(const Conditions& c, const facts::DecoratorFact& decorator, std::string& value) {
  return keywords_hold(c, decorator.args, value);
}

bool import_conditions_hold(const Conditions& c, const facts::ImportFact& import, facts::ImportOrigin origin,
                            std::string_view importer_module) {
  if (c.origins != 0 && (c.origins & enum_bit(origin)) == 0) return false;
  if (c.outside_package && *c.outside_package != imports_other_package(import, origin, importer_module)) return false;
  return flag_holds(c.dynamic, import.dynamic);
}

bool assign_conditions_hold(const Conditions& c, const facts::AssignFact& assign, std::uint16_t* guards) {
  if (!c.value) return true;
  if (!literal_matches(*c.value, assign.value)) return false;
  if (guards != nullptr) *guards |= cuda_side_guards(*c.value, assign.value);
  return true;
}

bool dependency_conditions_hold(const Conditions& c, const facts::DependencyFact& dependency) {
  if (c.value && !c.value->matches(dependency.spec)) return false;  // the requirement as written
  if (c.section && !c.section->matches(dependency.section)) return false;
  return !c.not_section || !c.not_section->matches(dependency.section);
}

bool device_conditions_hold(const Conditions& c, const facts::DeviceLiteralFact& device) {
  return c.device_uses == 0 || (c.device_uses & enum_bit(device.use)) != 0;
}

bool context_allows(const Rule& rule, const program::FileView& file, const facts::Context& ctx, std::uint32_t line) {
  if (!rule.where.empty()) {
    for (bool holds : predicate_values(rule.where, file, ctx, line)) {
      if (!holds) return false;
    }
  }
  if (!rule.unless.empty()) {
    for (bool holds : predicate_values(rule.unless, file, ctx, line)) {
      if (holds) return false;
    }
  }
  return true;
}

bool in_message_call(const facts::FileFacts& file, const facts::CallFact& call) {
  return std::any_of(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& outer) {
    if (&outer == &call || outer.ctx.function != call.ctx.function || outer.at.start_byte > call.at.start_byte ||
        outer.at.end_byte < call.at.end_byte)
      return false;
    if (outer.method.empty()) return outer.callee_text == "print" || starts_with(outer.callee.dotted(), "logging.");
    const std::string receiver = to_lower(outer.receiver_text);
    const std::string_view m = outer.method;
    return (receiver.find("log") != std::string::npos || receiver == "warnings") &&
           (m == "info" || m == "debug" || m == "warning" || m == "warn" || m == "error" || m == "log" || m == "print");
  });
}

namespace {

// A call that only compares or decodes a value, or puts it in a message.
bool checks_value(const facts::FileFacts& file, const facts::CallFact& call) {
  const std::string_view m = call.method;
  return call.callee.dotted() == "torch.equal" || m == "equal" || m == "batch_decode" || m == "decode" ||
         call.callee_text == "len" || in_message_call(file, call);
}

}  // namespace

bool result_checked_only(const facts::FileFacts& file, const facts::CallFact& call) {
  std::string_view name;
  for (const auto* bindings : {&file.bound_calls, &file.read_bindings}) {
    for (const auto& b : *bindings) {
      if (b.call_start_byte == call.at.start_byte && b.ctx.function == call.ctx.function) name = b.target_text;
    }
  }
  if (!is_identifier(name)) return false;
  // Returned, copied to another name, or handed to anything but a check: the value goes on.
  for (const auto& value : file.values) {
    if (value.ctx.function == call.ctx.function && value.name == name) return false;
  }
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function == call.ctx.function && mentions_name(assign.value.value, name)) return false;
  }
  // (Subscript stores, `example["input_ids"] = ids["input_ids"]`, leave no fact to read: the comparison with
  // another tensor, `torch.equal`, is what marks the check.)
  bool compared = false;
  for (const auto& use : file.calls) {
    if (&use == &call || use.ctx.function != call.ctx.function) continue;
    if (mentions_name(use.receiver_text, name)) return false;  // `ids.to(device)`
    const bool passed = std::any_of(use.args.begin(), use.args.end(),
                                    [&](const facts::Argument& arg) { return mentions_name(arg.value, name); });
    if (!passed) continue;
    if (!checks_value(file, use)) return false;
    compared = compared || use.callee.dotted() == "torch.equal" || use.method == "equal";
  }
  return compared;
}

}  // namespace tr2audit::rules::detail
