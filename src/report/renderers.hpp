// Private to report: the renderers that formats.cpp lists besides render_json/render_text (which
// report.hpp declares), and what several renderers share: the drivers of the verdict, the gate's
// view and section content, the JSON shape of a finding, and orderings and counts.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/report/report.hpp"

namespace tr2audit::report {

void render_sarif(const Report& report, const RenderOptions& options, std::ostream& out);     // sarif.cpp
void render_markdown(const Report& report, const RenderOptions& options, std::ostream& out);  // markdown.cpp
void render_html(const Report& report, const RenderOptions& options, std::ostream& out);      // html.cpp

/// Active (unsuppressed) findings ordered by severity (blocker first), then report order.
std::vector<const rules::Finding*> findings_by_severity(const Report& report);

/// "blocker 2, high 1" over unsuppressed findings (severities with zero left out), "" when none.
std::string severity_counts_text(const Report& report);

// --- the verdict's drivers (drivers.cpp) ------------------------------------------------------------

/// One rule the verdict rests on (a score::Driver with its findings resolved): the heaviest finding
/// first, then the rest the assessment counted, heaviest first.
struct Driver {
  std::string rule_id;
  Severity severity = Severity::info;
  const rules::Finding* cited = nullptr;
  std::vector<const rules::Finding*> findings;
};

inline constexpr std::size_t k_max_drivers = 10;

/// The findings the verdict rests on, grouped by rule, in the assessment's order
/// (`Assessment::drivers`); at most k_max_drivers. Empty without a recommendation.
std::vector<Driver> drivers(const Report& report);

/// A driver's findings at distinct places (path and line; two findings on one line are one place).
std::vector<const rules::Finding*> distinct_places(const Driver& driver);

// --- the gate (gate.cpp) ------------------------------------------------------------------------------

/// True when the report limits what the gate looks at (a baseline or a diff was given).
bool filters_findings(const Report& report);

/// The findings the human formats list under a baseline or diff: gated ones and suppressed ones
/// (rules[] trimmed to match); the report itself otherwise.
Report gated_view(const Report& report);

/// A piece of a gate-section line; renderers spell the kinds (bold, code) their own way.
struct Phrase {
  enum class Kind { plain, strong, code };
  Kind kind = Kind::plain;
  std::string text;
};
struct GateLine {
  int indent = 0;  ///< 0 = a heading line, 1 = a detail under it
  std::vector<Phrase> phrases;
};

/// The gate section: baseline counts and fixed findings, the diff delta, the decision. Empty without a gate.
std::vector<GateLine> gate_lines(const Report& report);

// --- links to code (links.cpp) ------------------------------------------------------------------------

/// A finding's path relative to the repository (the scan root's place in its work tree prepended), so
/// links do not depend on how the scan path was spelled ("./repo", "/abs/repo", "repo/").
std::string repo_path(const Report& report, std::string_view path);

/// The link target for path:line: repo-relative ("sub/model.py#L12", percent-encoded) or, with
/// options.link_base, absolute ("https://github.com/org/repo/blob/SHA/sub/model.py#L12").
std::string code_url(const Report& report, const RenderOptions& options, std::string_view path, std::uint32_t line);

/// Splits "path:line" (plan and setup evidence) into its parts; line 0 when there is no numeric suffix.
std::pair<std::string_view, std::uint32_t> split_location(std::string_view location);

// --- JSON shapes shared by json.cpp and html.cpp (json.cpp) --------------------------------------------

/// One finding as the JSON report writes it (with the gate's keys when the report has a gate).
nlohmann::ordered_json finding_json(const Report& report, const rules::Finding& finding);

}  // namespace tr2audit::report
