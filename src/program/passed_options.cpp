// The options a parameter with no default is passed down (see the header); and whether every call passes a
// parameter at all (Program::always_passed: a device default no run uses).
#include "program/passed_options.hpp"

#include <algorithm>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {

using option_values::is_literal;
using option_values::is_parameter;
using option_values::last_segment;
using option_values::last_two;
using option_values::leaves_off;
using option_values::positional_index;

namespace {}  // namespace

PassedOptions::PassedOptions(const Program::Impl& impl) : m_impl(impl) {
  m_callers.resize(impl.files.size());
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) m_callers[f].resize(impl.files[f].functions.size());
  for (std::uint32_t f = 0; f < impl.edges.size(); ++f) {
    if (impl.files[f].is_test) continue;
    for (std::size_t slot = 0; slot < impl.edges[f].size(); ++slot) {
      const std::int32_t caller = slot < impl.files[f].functions.size() ? static_cast<std::int32_t>(slot) : -1;
      for (const Edge& edge : impl.edges[f][slot]) {
        // A constructor call passes its arguments to `__init__` (`ROIPooler(..., pooler_type=pooler_type)`).
        const bool constructs = edge.constructs && !edge.deferred;
        if (edge.dispatch || edge.call < 0 || edge.target.index < 0) continue;
        // ... and `self.model.extract_features(x)` on a receiver of a known repo class names its method.
        const bool names_method =
            !edge.constructs &&
            impl.files[f].calls[static_cast<std::size_t>(edge.call)].method ==
                impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)].name;
        if (!edge.by_name && !constructs && !names_method) continue;
        auto& sites = m_callers[edge.target.file.value][static_cast<std::size_t>(edge.target.index)];
        if (sites.size() <= k_max_built_sites) sites.push_back(CallSite{FunctionId{FileId{f}, caller}, edge.call});
      }
    }
  }
}

bool PassedOptions::off(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                        const std::function<bool(std::string_view option)>& option_off, bool options_only) const {
  Query query{term, option_off, k_budget, options_only};
  return off_at(fn, name, 0, query);
}

bool PassedOptions::rebinds(FunctionId fn, std::string_view name, const facts::ConditionTerm* term) const {
  const auto& file = m_impl.files[fn.file.value];
  const bool tests_none = term != nullptr && term->equals == "None" && !term->member && !term->greater;
  return std::any_of(file.assigns.begin(), file.assigns.end(), [&](const facts::AssignFact& assign) {
    return assign.ctx.function == fn.index && assign.target_text == name && !(tests_none && keeps_none(fn, assign));
  });
}

bool PassedOptions::keeps_none(FunctionId fn, const facts::AssignFact& assign) const {
  if (fn.index < 0) return false;
  const auto& file = m_impl.files[fn.file.value];
  const auto& edges = m_impl.edges[fn.file.value][static_cast<std::size_t>(fn.index)];
  for (const auto& bound : file.bound_calls) {
    if (bound.ctx.function != fn.index || bound.target_text != assign.target_text ||
        bound.call_start_byte < assign.at.start_byte || bound.call_start_byte >= assign.at.end_byte)
      continue;
    for (const Edge& edge : edges) {
      if (edge.call < 0 || !edge.by_name || edge.constructs || edge.dispatch || edge.target.index < 0) continue;
      const auto& call = file.calls[static_cast<std::size_t>(edge.call)];
      if (call.at.start_byte != bound.call_start_byte) continue;
      const auto& callee = m_impl.files[edge.target.file.value].functions[static_cast<std::size_t>(edge.target.index)];
      if (callee.none_passthrough < 0 || callee.klass >= 0) return false;  // module functions: positions line up
      const auto position = static_cast<std::size_t>(callee.none_passthrough);
      const std::string_view parameter = callee.params[position].view();
      std::size_t index = 0;
      for (const auto& arg : call.args) {
        if (arg.is_splat) return false;
        const bool here = arg.keyword.empty() ? index++ == position : arg.keyword == parameter;
        if (here) return arg.value == assign.target_text;
      }
      return false;
    }
  }
  return false;
}

bool PassedOptions::off_where_built(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                                    const std::function<bool(std::string_view option)>& option_off) const {
  return built_off_at(fn, name, term, option_off, 0);
}

bool PassedOptions::off_where_passed(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                                     const std::function<bool(std::string_view option)>& option_off) const {
  if (fn.index < 0) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  if (info.name == "forward" || info.name == "__call__" || info.name == "__init__" || !is_parameter(info, name) ||
      rebinds(fn, name, &term))
    return false;
  const auto& sites = m_callers[fn.file.value][static_cast<std::size_t>(fn.index)];
  if (sites.empty() || sites.size() > k_max_sites) return false;
  Query query{term, option_off, k_budget};
  const std::optional<std::size_t> position = positional_index(info, name);
  // Only sites that pass a value decide; one that leaves the parameter out makes it false.
  return every_reached_site(sites, [&](const CallSite& site) {
    return passed_argument(site, position, name) != nullptr && site_off(site, position, name, 0, query);
  });
}

std::optional<std::pair<FunctionId, std::string_view>> PassedOptions::constructor_binding(
    FunctionId caller, std::string_view attribute) const {
  if (caller.index < 0 || !starts_with(attribute, "self.") || attribute.find('.', 5) != std::string_view::npos)
    return std::nullopt;
  const auto& file = m_impl.files[caller.file.value];
  const std::int32_t klass = file.functions[static_cast<std::size_t>(caller.index)].klass;
  if (klass < 0) return std::nullopt;
  const facts::AssignFact* binding = option_values::sole_init_binding(file, klass, attribute);
  if (binding == nullptr || binding->value.kind != facts::LiteralKind::name || !binding->value.resolved.empty())
    return std::nullopt;
  const auto& init = file.functions[static_cast<std::size_t>(binding->ctx.function)];
  const std::string_view param = binding->value.value;
  if (init.klass != klass || !is_identifier(param) || !is_parameter(init, param)) return std::nullopt;
  return std::pair{FunctionId{caller.file, binding->ctx.function}, param};
}

bool PassedOptions::built_off_at(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                                 const std::function<bool(std::string_view option)>& option_off, int depth) const {
  if (fn.index < 0 || depth > k_max_depth) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  if (info.name != "__init__" || !is_parameter(info, name)) return false;
  // `xformers_att_config = parse_config(xformers_att_config)`: the body tests its own value, not the callers' (unless
  // the helper gives None back for None and the test is for None: fairseq's `utils.eval_str_dict`).
  if (rebinds(fn, name, &term)) return false;
  const facts::Argument* omitted = nullptr;
  for (const auto& param : info.param_defaults) {
    if (param.keyword == name && is_literal(param)) omitted = &param;
  }
  const auto& sites = m_callers[fn.file.value][static_cast<std::size_t>(fn.index)];
  if (sites.empty() || sites.size() > k_max_built_sites) return false;
  Query query{term, option_off, k_budget};
  const std::optional<std::size_t> position = positional_index(info, name);
  return every_reached_site(sites, [&](const CallSite& site) {
    // `super().__init__(llm, lora=lora)` in a subclass's constructor: the subclass's constructions decide, not
    // its default (xtuner's shipped configs build its trainers with `lora=dict(...)`).
    const facts::Argument* passed = passed_argument(site, position, name);
    const bool handed_on =
        passed != nullptr && !passed->is_splat && passed->kind == facts::LiteralKind::name &&
        passed->resolved.empty() && is_identifier(passed->value) && site.caller.index >= 0 &&
        m_impl.files[site.caller.file.value].functions[static_cast<std::size_t>(site.caller.index)].name == "__init__";
    return handed_on ? built_off_at(site.caller, passed->value, term, option_off, depth + 1)
                     : site_off(site, position, name, 0, query, omitted);
  });
}

bool PassedOptions::off_in_training(FunctionId fn, std::string_view name, const facts::ConditionTerm& term,
                                    bool* all_omitted) const {
  if (fn.index < 0) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  if (!is_parameter(info, name)) return false;
  const std::optional<std::size_t> position = positional_index(info, name);
  const std::function<bool(std::string_view)> no_option = [](std::string_view) { return false; };
  Query query{term, no_option, k_budget};
  // `norm_type = float(norm_type)` in the body: what the branch tests is no longer what the callers passed.
  // (Not a rebinding that runs only where the term already holds: `if padding_mask is not None: padding_mask =
  // self.forward_padding_mask(x, padding_mask)`.)
  const auto& file = m_impl.files[fn.file.value];
  const auto under_term = [&](std::int32_t branch) {
    for (int depth = 0; branch >= 0 && depth < 64; ++depth) {
      const auto& info = file.branches[static_cast<std::size_t>(branch)];
      if (!info.else_side && !info.any_of && std::find(info.terms.begin(), info.terms.end(), term) != info.terms.end())
        return true;
      branch = info.parent;
    }
    return false;
  };
  if (std::any_of(file.assigns.begin(), file.assigns.end(), [&](const facts::AssignFact& assign) {
        return assign.ctx.function == fn.index && assign.target.dotted() == name && !under_term(assign.ctx.branch);
      }))
    return false;
  const facts::Argument* omitted = nullptr;
  if (info.name != "forward" && info.name != "__call__") {
    for (const auto& param : info.param_defaults) {
      if (param.keyword == name && is_literal(param)) omitted = &param;
    }
  }
  bool decided = false;
  bool omitted_everywhere = true;
  for (const CallSite& site : m_callers[fn.file.value][static_cast<std::size_t>(fn.index)]) {
    if ((m_impl.at(site.caller).roles & training_roles()).none()) continue;
    if (!site_off(site, position, name, k_max_depth, query, omitted)) return false;
    omitted_everywhere = omitted_everywhere && passed_argument(site, position, name) == nullptr;
    decided = true;
  }
  if (all_omitted) *all_omitted = decided && omitted_everywhere;
  return decided;
}

const facts::Argument* PassedOptions::passed_argument(const CallSite& site, std::optional<std::size_t> position,
                                                      std::string_view name) const {
  const facts::CallFact& call = m_impl.files[site.caller.file.value].calls[static_cast<std::size_t>(site.call)];
  const facts::Argument* passed = nullptr;
  std::size_t positional = 0;
  for (const auto& arg : call.args) {
    if (arg.is_splat) return &arg;
    if (arg.keyword.empty()) {
      if (position && positional == *position) passed = &arg;
      ++positional;
    } else if (arg.keyword == name) {
      passed = &arg;
    }
  }
  return passed;
}

bool PassedOptions::passed_on_in_training(FunctionId fn, std::string_view name,
                                          const facts::ConditionTerm& term) const {
  if (fn.index < 0) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  if (info.name == "forward" || info.name == "__call__" || !is_parameter(info, name)) return false;
  const std::optional<std::size_t> position = positional_index(info, name);
  for (const CallSite& site : m_callers[fn.file.value][static_cast<std::size_t>(fn.index)]) {
    if ((m_impl.at(site.caller).roles & training_roles()).none()) continue;
    const facts::Argument* passed = passed_argument(site, position, name);
    if (passed != nullptr && !passed->is_splat && is_literal(*passed) && !leaves_off(*passed, term)) return true;
  }
  return false;
}

bool PassedOptions::off_at(FunctionId fn, std::string_view name, int depth, Query& query) const {
  if (depth > k_max_depth || fn.index < 0 || --query.budget < 0) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  // `if lora_config is None: lora_config = LoraConfig(...)` before the call: what the callee gets is no longer the
  // parameter's default or what the callers passed.
  if (depth > 0 && rebinds(fn, name)) return false;
  for (const auto& param : info.param_defaults) {
    if (param.keyword == name) return is_literal(param) && leaves_off(param, query.term);
  }
  const std::optional<std::size_t> position = positional_index(info, name);
  const auto& sites = m_callers[fn.file.value][static_cast<std::size_t>(fn.index)];
  if (sites.empty() || sites.size() > k_max_sites) return false;
  return every_reached_site(sites, [&](const CallSite& site) { return site_off(site, position, name, depth, query); });
}

bool PassedOptions::site_off(const CallSite& site, std::optional<std::size_t> position, std::string_view name,
                             int depth, Query& query, const facts::Argument* omitted) const {
  const facts::CallFact& call = m_impl.files[site.caller.file.value].calls[static_cast<std::size_t>(site.call)];
  const facts::Argument* passed = passed_argument(site, position, name);
  if (passed != nullptr && passed->is_splat) return false;  // `f(*args, **kwargs)`: not known here
  if (passed == nullptr) return omitted != nullptr && leaves_off(*omitted, query.term);
  const std::string_view text = passed->value;
  if (query.options_only &&
      (passed->kind != facts::LiteralKind::name || !option_values::config_receiver(text)))  // `args.x`, `cfg.x`
    return false;
  if (is_literal(*passed)) return leaves_off(*passed, query.term);
  if (passed->kind == facts::LiteralKind::name && passed->resolved.empty() &&
      text.find('.') == std::string_view::npos && site.caller.index >= 0) {
    // `pooler_type = cfg.MODEL.ROI_BOX_HEAD.POOLER_TYPE` earlier in the caller: that option's default decides.
    if (const auto read = option_values::sole_dotted_read(m_impl.files[site.caller.file.value], site.caller.index, text,
                                                          call.at.start_byte))
      return option_off(*read, query);
    return off_at(site.caller, text, depth + 1, query);
  }
  // `self.max_length` bound in `__init__` from its own parameter: the class's constructions decide.
  if (passed->kind == facts::LiteralKind::name && passed->resolved.empty()) {
    if (const auto bound = constructor_binding(site.caller, text))
      return built_off_at(bound->first, bound->second, query.term, query.option_off, depth + 1);
  }
  // `params["comm_backend"]` / `cfg.comm_backend`: the option's repo default decides.
  std::string option;
  if (const auto open = text.find("[\""); open != std::string_view::npos && ends_with(text, "\"]"))
    option = std::string(text.substr(open + 2, text.size() - open - 4));
  else if (passed->kind == facts::LiteralKind::name && text.find('.') != std::string_view::npos)
    return option_off(text, query);
  return !option.empty() && query.option_off(option);
}

bool PassedOptions::option_off(std::string_view dotted, Query& query) {
  // `cfg.MODEL.ROI_BOX_HEAD.POOLER_TYPE`: a yacs default is known by its last two names (program/options).
  if (std::count(dotted.begin(), dotted.end(), '.') >= 2 && query.option_off(last_two(dotted))) return true;
  return query.option_off(last_segment(dotted));
}

// `def loader(*args, **kwargs): yield from loader_with_state(*args, **kwargs)`: a wrapper that forwards its own
// arguments passes a parameter exactly when its callers pass it.
bool PassedOptions::forwards_arguments(const CallSite& site) const {
  if (site.caller.index < 0) return false;
  const auto& caller = m_impl.files[site.caller.file.value].functions[static_cast<std::size_t>(site.caller.index)];
  const facts::CallFact& call = m_impl.files[site.caller.file.value].calls[static_cast<std::size_t>(site.call)];
  bool forwards = false;
  for (const auto& arg : call.args) {
    if (!arg.is_splat) continue;
    const std::string_view text = arg.value;
    const std::string_view name = text.substr(text.find_first_not_of('*'));
    const bool own = std::any_of(caller.params.begin(), caller.params.end(), [&](const FactString& param) {
      const std::string_view p = param;
      return p.find_first_not_of('*') > 0 && p.substr(p.find_first_not_of('*')) == name;
    });
    if (!own) return false;
    forwards = true;
  }
  return forwards;
}

bool PassedOptions::always_passed(FunctionId fn, std::string_view name) const {
  if (fn.index < 0) return false;
  const auto& info = m_impl.files[fn.file.value].functions[static_cast<std::size_t>(fn.index)];
  if (!option_values::is_parameter(info, name)) return false;
  return passed_at_every_site(fn, name, positional_index(info, name), 0);
}

bool PassedOptions::passed_at_every_site(FunctionId fn, std::string_view name, std::optional<std::size_t> position,
                                         int depth) const {
  if (depth > k_max_depth) return false;
  const auto& sites = m_callers[fn.file.value][static_cast<std::size_t>(fn.index)];
  if (sites.empty() || sites.size() > k_max_sites) return false;
  return std::all_of(sites.begin(), sites.end(), [&](const CallSite& site) {
    const facts::Argument* passed = passed_argument(site, position, name);
    if (passed == nullptr || !passed->is_splat) return passed != nullptr;
    return forwards_arguments(site) && passed_at_every_site(site.caller, name, position, depth + 1);
  });
}

void index_call_sites(Program::Impl& impl) {
  impl.call_sites = std::make_shared<const PassedOptions>(impl);
}

}  // namespace tr2audit::program
