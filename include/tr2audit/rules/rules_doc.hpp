// rules/rules_doc: docs/rules.md, generated from the RuleSet (`tr2audit rules docs`), so the rule
// reference never drifts from the YAML. Deterministic: same rules, same bytes.
#pragma once
#include <string>

#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::rules {

/// The Markdown reference of every rule, grouped by category in report order, rules by id.
std::string render_rules_markdown(const RuleSet& rules);

/// "high", or "high (xla: blocker)" when severity_by_profile changes it.
std::string severity_summary(const Rule& rule);

/// "native, xla".
std::string profiles_summary(const Rule& rule);

}  // namespace tr2audit::rules
