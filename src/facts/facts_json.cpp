#include "tr2audit/facts/facts_json.hpp"

#include "tr2audit/facts/region.hpp"

namespace tr2audit::facts {
namespace {

using Json = nlohmann::ordered_json;

Json span_json(const Span& at) {
  return Json::array({at.line, at.column, at.end_line, at.end_column});
}

Json context_json(const FileFacts& file, const Context& ctx) {
  Json out{{"region", std::string(to_string(region_of(file, ctx)))}};
  if (ctx.function >= 0) out["function"] = file.functions[ctx.function].qualname;
  if (ctx.klass >= 0) out["class"] = file.classes[ctx.klass].qualname;
  if (ctx.loop >= 0) out["in_loop"] = true;
  if (in_training_loop(file, ctx)) out["in_training_loop"] = true;
  if (ctx.guards) out["guards"] = guard_names(ctx.guards);
  if (ctx.in_error_region) out["in_error_region"] = true;
  if (ctx.in_assert) out["in_assert"] = true;
  return out;
}

Json argument_json(const Argument& arg) {
  Json out = Json::object();
  if (!arg.keyword.empty()) out["keyword"] = arg.keyword;
  out["kind"] = std::string(to_string(arg.kind));
  out["value"] = arg.value;
  if (!arg.resolved.empty()) out["resolved"] = arg.resolved.dotted();
  if (arg.is_splat) out["splat"] = true;
  if (arg.scalar) out["scalar"] = true;
  return out;
}

template <class Facts, class Fn>
Json list_json(const Facts& facts, Fn&& fn) {
  Json out = Json::array();
  for (const auto& fact : facts) out.push_back(fn(fact));
  return out;
}

}  // namespace

std::string_view to_string(Guard guard) {
  switch (guard) {
    case Guard::cuda_available:
      return "cuda-available";
    case Guard::import_error_fallback:
      return "import-error-fallback";
    case Guard::device_branch:
      return "device-branch";
    case Guard::neuron_branch:
      return "neuron-branch";
    case Guard::main_block:
      return "main-block";
    case Guard::type_checking:
      return "type-checking";
    case Guard::no_grad:
      return "no-grad";
    case Guard::except_handler:
      return "except-handler";
    case Guard::periodic:
      return "periodic";
    case Guard::step_closure:
      return "step-closure";
    case Guard::opt_in:
      return "opt-in";
    case Guard::not_training:
      return "not-training";
    case Guard::message_only:
      return "message-only";
    case Guard::error_message:
      return "error-message";
    case Guard::failure_path:
      return "failure-path";
    case Guard::non_finite:
      return "non-finite-branch";
  }
  return "unknown-guard";
}

std::vector<std::string> guard_names(std::uint16_t guards) {
  std::vector<std::string> out;
  for (Guard guard : k_all_guards) {
    if (guards & guard_bit(guard)) out.emplace_back(to_string(guard));
  }
  return out;
}

std::string_view to_string(ImportOrigin origin) {
  switch (origin) {
    case ImportOrigin::external:
      return "external";
    case ImportOrigin::local_source:
      return "local-source";
    case ImportOrigin::local_missing:
      return "local-missing";
  }
  return "external";
}

std::string_view to_string(LiteralKind kind) {
  switch (kind) {
    case LiteralKind::none:
      return "none";
    case LiteralKind::string:
      return "string";
    case LiteralKind::integer:
      return "integer";
    case LiteralKind::floating:
      return "float";
    case LiteralKind::boolean:
      return "boolean";
    case LiteralKind::null:
      return "null";
    case LiteralKind::name:
      return "name";
    case LiteralKind::other:
      return "other";
  }
  return "other";
}

std::string_view to_string(DeviceUse use) {
  switch (use) {
    case DeviceUse::call_argument:
      return "call-argument";
    case DeviceUse::assignment:
      return "assignment";
    case DeviceUse::comparison:
      return "comparison";
    case DeviceUse::other:
      return "other";
    case DeviceUse::parameter_default:
      return "parameter-default";
  }
  return "other";
}

nlohmann::ordered_json to_json(const FileFacts& f) {
  const auto ctx = [&](const Context& c) { return context_json(f, c); };
  Json out{{"path", f.path},          {"kind", std::string(discover::to_string(f.kind))},
           {"module", f.module_name}, {"lines", f.lines},
           {"is_test", f.is_test},    {"has_syntax_errors", f.has_syntax_errors}};
  if (!f.cpu_twin.empty()) out["cpu_twin"] = f.cpu_twin;
  out["imports"] = list_json(f.imports, [&](const ImportFact& i) {
    return Json{{"target", i.target.dotted()}, {"module", i.module.dotted()}, {"bound", i.bound_name},
                {"level", i.relative_level},   {"dynamic", i.dynamic},        {"lazy", i.lazy},
                {"at", span_json(i.at)},       {"context", ctx(i.ctx)}};
  });
  out["calls"] = list_json(f.calls, [&](const CallFact& c) {
    Json j{{"callee", c.callee.dotted()}, {"text", c.callee_text}};
    if (!c.method.empty()) j["method"] = c.method;
    if (!c.receiver_text.empty()) j["receiver"] = c.receiver_text;
    if (!c.receiver_callee.empty()) j["receiver_callee"] = c.receiver_callee.dotted();
    if (c.item_argument) j["item_argument"] = true;
    if (c.host_value) j["host_value"] = true;
    j["args"] = list_json(c.args, argument_json);
    j["at"] = span_json(c.at);
    j["context"] = ctx(c.ctx);
    return j;
  });
  out["decorators"] = list_json(f.decorators, [&](const DecoratorFact& d) {
    return Json{{"decorator", d.decorator.dotted()},
                {"decorated", d.decorated},
                {"args", list_json(d.args, argument_json)},
                {"at", span_json(d.at)},
                {"context", ctx(d.ctx)}};
  });
  out["assigns"] = list_json(f.assigns, [&](const AssignFact& a) {
    return Json{{"target", a.target.dotted()},
                {"target_is_import", a.target_is_import},
                {"value", argument_json(a.value)},
                {"at", span_json(a.at)},
                {"context", ctx(a.ctx)}};
  });
  out["references"] = list_json(f.references, [&](const ReferenceFact& r) {
    return Json{{"name", r.name.dotted()}, {"text", r.text}, {"at", span_json(r.at)}, {"context", ctx(r.ctx)}};
  });
  out["devices"] = list_json(f.devices, [&](const DeviceLiteralFact& d) {
    return Json{{"value", d.value},      {"use", std::string(to_string(d.use))},
                {"callee", d.callee},    {"keyword", d.keyword},
                {"at", span_json(d.at)}, {"context", ctx(d.ctx)}};
  });
  out["patterns"] = list_json(f.patterns, [&](const PatternFact& p) {
    return Json{{"kind", p.kind}, {"detail", p.detail}, {"at", span_json(p.at)}, {"context", ctx(p.ctx)}};
  });
  out["dependencies"] = list_json(f.dependencies, [&](const DependencyFact& d) {
    return Json{{"name", d.name}, {"spec", d.spec}, {"section", d.section}, {"line", d.at.line}};
  });
  out["settings"] = list_json(f.settings, [&](const SettingFact& s) {
    Json out{{"key", s.key}, {"value", s.value}, {"at", span_json(s.at)}};
    if (!s.program.empty()) out["program"] = s.program;
    return out;
  });
  out["launched_programs"] = f.launched_programs;
  out["name_strings"] = f.name_strings;
  out["source_file_strings"] = f.source_file_strings;
  out["used_names"] = f.used_names;
  out["dispatch_entries"] = list_json(f.dispatch_entries, [&](const DispatchEntry& e) {
    return Json{{"table", e.table}, {"key", e.key}, {"name", e.name}, {"value", span_json(e.value)}};
  });
  out["computed_lookups"] = f.computed_lookups;
  out["functions"] = list_json(f.functions, [&](const FunctionInfo& fn) {
    Json decorators = Json::array();
    for (const auto& d : fn.decorators) decorators.push_back(d.dotted());
    Json entry{{"qualname", fn.qualname},
               {"decorators", decorators},
               {"calls_backward", fn.calls_backward},
               {"calls_optimizer_step", fn.calls_optimizer_step},
               {"at", span_json(fn.at)}};
    if (fn.conditional) entry["conditional"] = true;
    if (fn.unreferenced_nested) entry["unreferenced_nested"] = true;
    if (fn.is_generator) entry["generator"] = true;
    if (fn.none_passthrough >= 0)
      entry["none_passthrough"] = fn.params[static_cast<std::size_t>(fn.none_passthrough)].str();
    return entry;
  });
  out["classes"] = list_json(f.classes, [&](const ClassInfo& c) {
    Json bases = Json::array();
    for (const auto& b : c.bases) bases.push_back(b.dotted());
    return Json{{"qualname", c.qualname}, {"bases", bases}, {"at", span_json(c.at)}};
  });
  out["branches"] = list_json(f.branches, [&](const BranchInfo& b) {
    Json terms = Json::array();
    for (const auto& t : b.terms) {
      Json term{{"name", t.name}};
      if (t.registry) {
        term["in_registry"] = t.equals;
      } else if (t.member) {
        Json values = Json::array();
        for (std::size_t from = 0; from <= t.equals.size();) {
          const auto at = t.equals.find(k_member_separator, from);
          values.push_back(t.equals.substr(from, at == std::string::npos ? at : at - from));
          if (at == std::string::npos) break;
          from = at + 1;
        }
        term["in"] = std::move(values);
      } else if (!t.equals.empty()) {
        term[t.greater ? "greater_than" : "equals"] = t.equals;
      }
      if (t.negated) term["negated"] = true;
      if (t.folded) term["case_folded"] = true;
      if (t.contains) term["contains"] = true;
      if (t.split_separator != 0) {
        term["split_at"] = std::string(1, t.split_separator);
        term["split_part"] = t.split_part;
      }
      terms.push_back(std::move(term));
    }
    Json out{{"parent", b.parent}, {"else_side", b.else_side}, {"terms", terms}, {"at", span_json(b.at)}};
    if (b.any_of) out["any_of"] = true;
    return out;
  });
  out["problems"] = list_json(f.problems, [&](const Problem& p) { return format_problem(p); });
  return out;
}

}  // namespace tr2audit::facts
