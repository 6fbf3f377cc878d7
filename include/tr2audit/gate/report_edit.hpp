// gate/report_edit: helpers that keep a Report consistent after the gate adds or changes findings:
// the contract's sort order, F0001... ids (and the ids the recommendation refers to), rules[].
#pragma once
#include <string_view>

#include "tr2audit/report/report.hpp"

namespace tr2audit::gate {

/// Sorts findings by (path, line, column, rule id), renumbers them F0001..., and rewrites the
/// finding ids in the recommendation and project assessments to match.
void renumber_findings(report::Report& report);

/// Adds a RuleInfo for a gate meta rule (tr2audit.*) if findings of it exist and it is not listed.
void add_meta_rule_info(report::Report& report, std::string_view rule_id, std::string_view title, std::string_view why,
                        std::string_view fix);

}  // namespace tr2audit::gate
