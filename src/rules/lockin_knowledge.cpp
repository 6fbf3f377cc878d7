// What the rules know about GPU-only code, handed to the repository model (program::LockinKnowledge):
// the program propagates lock-in through the repo's own calls without depending on the rules.
#include <algorithm>

#include "match_detail.hpp"
#include "tr2audit/rules/match.hpp"

namespace tr2audit::rules {

namespace detail {

bool is_gpu_only_rule(const Rule& rule, TargetProfile profile) {
  return (rule.category == Category::cuda_extension || rule.category == Category::cuda_library) &&
         rule.applies_to(profile) && rule.severity_for(profile) >= Severity::medium;
}

}  // namespace detail

program::LockinKnowledge lockin_knowledge(const RuleSet& rules, TargetProfile profile) {
  const auto gpu_only = [&rules, profile](std::uint32_t i) {
    return detail::is_gpu_only_rule(rules.rules()[i], profile);
  };
  program::LockinKnowledge out;
  // A call that a GPU-only `call:` rule (of `category`, when given) reports.
  const auto gpu_only_call = [&rules, gpu_only](const facts::CallFact& call, std::optional<Category> category) {
    if (call.callee.empty()) return false;
    std::vector<std::uint32_t> found;
    rules.index(SubjectKind::call).candidates(call.callee.dotted(), rules.rules(), found);
    std::string value;
    return std::any_of(found.begin(), found.end(), [&](std::uint32_t i) {
      const Rule& rule = rules.rules()[i];
      const Conditions& c = rule.conditions;
      return gpu_only(i) && (!category || rule.category == *category) &&
             !(c.exclude && c.exclude->matches(call.callee.dotted())) && detail::call_conditions_hold(c, call, value);
    });
  };
  out.kernel_call = [gpu_only_call](const facts::CallFact& call) { return gpu_only_call(call, std::nullopt); };
  out.library_call = [gpu_only_call](const facts::CallFact& call) {
    return gpu_only_call(call, Category::cuda_library);
  };
  out.kernel_decorator = [&rules, gpu_only](const QualifiedName& decorator) {
    std::vector<std::uint32_t> found;
    rules.index(SubjectKind::decorator).candidates(decorator.dotted(), rules.rules(), found);
    return std::any_of(found.begin(), found.end(), [&](std::uint32_t i) {
      const Conditions& c = rules.rules()[i].conditions;
      return gpu_only(i) && rules.rules()[i].category == Category::cuda_extension &&
             !(c.exclude && c.exclude->matches(decorator.dotted())) && c.keywords.empty();
    });
  };
  out.extension_module = [&rules, profile](const QualifiedName& module, facts::ImportOrigin origin) {
    std::vector<std::uint32_t> found;
    rules.index(SubjectKind::import).candidates(module.dotted(), rules.rules(), found);
    return std::any_of(found.begin(), found.end(), [&](std::uint32_t i) {
      const Rule& rule = rules.rules()[i];
      const Conditions& c = rule.conditions;
      return rule.extension_modules && rule.applies_to(profile) &&
             (c.origins == 0 || (c.origins & (1u << static_cast<unsigned>(origin))) != 0) &&
             !(c.exclude && c.exclude->matches(module.dotted()));
    });
  };
  out.wrapped_op = [&rules, profile](const facts::CallFact& call) {
    const bool is_method = !call.method.empty() && call.callee.empty();
    const SubjectKind kind = is_method ? SubjectKind::method : SubjectKind::call;
    const std::string name = is_method ? call.method : call.callee.dotted();
    if (name.empty() || call.host_value) return false;
    std::vector<std::uint32_t> found;
    rules.index(kind).candidates(name, rules.rules(), found);
    std::string value;
    return std::any_of(found.begin(), found.end(), [&](std::uint32_t i) {
      const Rule& rule = rules.rules()[i];
      return rule.wrappers && rule.applies_to(profile) && detail::call_conditions_hold(rule.conditions, call, value);
    });
  };
  return out;
}

}  // namespace tr2audit::rules
