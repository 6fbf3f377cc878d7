// Private to report: the renderers that formats.cpp lists besides render_json/render_text (which
// report.hpp declares), and small text helpers the Markdown and HTML renderers share.
#pragma once
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

}  // namespace tr2audit::report
