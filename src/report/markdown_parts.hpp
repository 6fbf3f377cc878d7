// Private to the Markdown report: escaping, code spans, links, and the size budget every section is
// written through (a GitHub comment holds 65,536 characters; the report stays under k_markdown_limit).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "renderers.hpp"

namespace tr2audit::report::markdown {

inline constexpr std::size_t k_markdown_limit = 60000;  ///< bytes, so characters never exceed it either
inline constexpr std::size_t k_reserve = 2000;          ///< kept for truncation notes, closers and the footer
inline constexpr std::size_t k_max_notes = 10;          ///< notes a report can write (each may name --link-full)

/// Inline text with Markdown and HTML specials escaped; newlines become spaces (table-safe).
std::string md(std::string_view text);
/// Code span that survives backticks in the text ('|' becomes '/', newlines spaces: table-safe).
std::string code(std::string_view text);
/// Text cut to at most max code points (on a UTF-8 boundary) with "…" when cut.
std::string clip(std::string_view text, std::size_t max);
/// [`repo/path:line`](url) for a finding's place.
std::string link(const Report& report, const RenderOptions& options, std::string_view path, std::uint32_t line);
/// A finding's place: path:line, or for a notebook "path:cell N:line" linking to the notebook.
std::string finding_link(const Report& report, const RenderOptions& options, const rules::Finding& finding);
/// A "path:line" evidence string as a link (code span when it has no line).
std::string location_link(const Report& report, const RenderOptions& options, std::string_view location);
std::string_view severity_emoji(Severity severity);

/// The report being written: text is added only while it fits under the limit less the reserve;
/// notes (truncation counts, closers, the footer) may use the reserve.
class Sink {
 public:
  /// link_full: the --link-full URL, which each note may repeat (the reserve grows with it).
  explicit Sink(std::string_view link_full) : m_reserve(k_reserve + k_max_notes * link_full.size()) {}
  bool add(std::string_view text) {
    if (m_text.size() + text.size() + m_reserve > k_markdown_limit) return false;
    m_text += text;
    return true;
  }
  void note(std::string_view text) { m_text += text; }
  const std::string& text() const { return m_text; }

 private:
  std::size_t m_reserve;
  std::string m_text;
};

/// "the full report (URL)" or the artifacts of the run: where a reader finds what was cut.
std::string full_report(const RenderOptions& options);

/// A table written row by row while it fits (at most max_rows); then "+N more WHAT" with where the
/// full report is. Nothing (not even the header) when rows is empty.
void table(Sink& out, std::string_view header, const std::vector<std::string>& rows, std::size_t max_rows,
           std::string_view what, const RenderOptions& options);

/// The sections that fold into <details>: plan, operators, training setup, problems (markdown_details.cpp).
void plan_section(const Report& report, const RenderOptions& options, Sink& out);
void operators_section(const Report& report, const RenderOptions& options, Sink& out);
void setup_section(const Report& report, const RenderOptions& options, Sink& out);
void problems_section(const Report& report, Sink& out);

}  // namespace tr2audit::report::markdown
