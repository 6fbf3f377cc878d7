// Private to the text report: ANSI styling that is a no-op when colour is off, and the sections
// shared by text.cpp (findings) and text_assessment.cpp (verdict, plan, operators, setup).
#pragma once
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/report/report.hpp"

namespace tr2audit::report::text {

class Palette {
 public:
  explicit Palette(bool on) : m_on(on) {}
  /// text wrapped in the SGR code when colour is on.
  std::string paint(std::string_view text, std::string_view code) const;
  std::string bold(std::string_view text) const { return paint(text, "1"); }
  std::string dim(std::string_view text) const { return paint(text, "2"); }
  /// The severity's name in its colour (blocker bold red ... info green).
  std::string severity(Severity severity) const;
  /// The verdict in its colour (gpu-keep red, dual-run yellow, trainium2-pilot green).
  std::string verdict(score::Verdict verdict) const;

 private:
  bool m_on;
};

/// open + text + close (one allocation; also sidesteps a GCC 12 -Wrestrict false positive).
std::string enclose(std::string_view open, std::string_view text, std::string_view close);
/// "a, b, c" with at most `max` items and "+N more".
std::string join_limited(const std::vector<std::string>& items, std::size_t max);

/// "1 file", "3 files".
std::string plural(std::size_t count, std::string_view noun);
/// Words of `text` wrapped to `width` columns (code points): the first line starts with `first`, the
/// others with `rest`; a word longer than a line stays whole. Ends with a newline.
std::string wrap(std::string_view text, std::size_t width, std::string_view first, std::string_view rest);

/// Verdict, readiness and confidence on one line (nothing when the report has no recommendation).
void render_verdict_line(const Report& report, const Palette& p, std::ostream& out);
/// The reasons (all with --all, else the first three), wrapped.
void render_reasons(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out);
/// What drives the verdict: the recommendation's drivers, one rule per entry with count and places.
void render_drivers(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out);
/// Per-entry-point and per-project verdicts.
void render_entry_verdicts(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out);
/// What would change the verdict, the plan and the category scores.
void render_assessment(const Report& report, const RenderOptions& options, const Palette& p, std::ostream& out);
/// Findings by file, training path first (text_findings.cpp); at most `budget` lines unless --all.
void render_findings(const Report& report, const RenderOptions& options, const Palette& p, std::size_t budget,
                     std::ostream& out);
/// Unsupported, replace and caveat operators with call counts and first locations.
void render_operators(const OperatorSummary& ops, const RenderOptions& options, const Palette& p, std::ostream& out);
/// The training-setup facts with their evidence.
void render_setup(const TrainingSetup& setup, const Palette& p, std::ostream& out);

}  // namespace tr2audit::report::text
