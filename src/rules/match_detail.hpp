// rules/match_detail (private): the per-fact tests behind rules::match: a rule's subject
// conditions against one fact, and where/unless predicates against a fact's context.
#pragma once
#include <string>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/rule.hpp"

namespace tr2audit::rules::detail {

/// True when a call or method fact satisfies the rule's conditions; `value` gets the value of the
/// first keyword/positional condition's argument (for the {value} placeholder).
bool call_conditions_hold(const Conditions& c, const facts::CallFact& call, std::string& value);
/// Decorators take keyword conditions only.
bool decorator_conditions_hold(const Conditions& c, const facts::DecoratorFact& decorator, std::string& value);
bool import_conditions_hold(const Conditions& c, const facts::ImportFact& import, facts::ImportOrigin origin);
bool assign_conditions_hold(const Conditions& c, const facts::AssignFact& assign);
bool dependency_conditions_hold(const Conditions& c, const facts::DependencyFact& dependency);
bool device_conditions_hold(const Conditions& c, const facts::DeviceLiteralFact& device);

/// True when the rule's `where` predicates all hold and none of its `unless` predicates does.
bool context_allows(const Rule& rule, const program::FileView& file, const facts::Context& ctx);

}  // namespace tr2audit::rules::detail
