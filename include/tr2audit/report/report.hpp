// report: the immutable result of a scan that every output format renders (architecture §11).
// Built once by the pipeline; formats are pure functions of it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/pilot/pilot.hpp"
#include "tr2audit/report/gate.hpp"
#include "tr2audit/report/operators.hpp"
#include "tr2audit/report/training_setup.hpp"
#include "tr2audit/rules/finding.hpp"
#include "tr2audit/score/assessment.hpp"

namespace tr2audit::report {

inline constexpr std::string_view k_schema_version = "1.0";

struct GitInfo {
  std::string commit;
  std::string branch;
  std::string prefix;  ///< the scan root relative to the work tree's top ("" or "sub/dir/"): repo-relative links
};

struct RunInfo {
  std::string tool_version;  ///< "0.1.0"; golden tests inject "<version>"
  std::string rules_version;
  std::string started_at;  ///< ISO 8601 UTC
  std::uint64_t duration_ms = 0;
};

struct ScanInfo {
  std::string root;  ///< as the user named it
  std::optional<GitInfo> git;
  std::uint32_t files_scanned = 0;
  std::uint32_t files_skipped = 0;
  std::uint32_t files_with_syntax_errors = 0;
  std::uint64_t lines = 0;
  std::map<std::string, std::uint32_t> files_by_kind;  ///< "python" -> n, "cuda-source" -> n, ...
  std::uint64_t findings_capped = 0;                   ///< findings counted but not listed (pipeline/limits caps)
  std::uint32_t files_over_facts_budget = 0;           ///< files dropped by the scan's facts budget
  std::uint64_t training_lines = 0;  ///< lines a training entry point reaches (Program::training_lines)
};

/// What a report needs to know about each rule that fired (SARIF rules[], explain links).
struct RuleInfo {
  std::string id, title, category, severity, confidence, why, fix;
  std::vector<std::string> sources;
};

/// A training entry point of the repository model: "train.py:main" and the lines it reaches.
struct TrainingEntry {
  std::string name;
  std::uint64_t lines = 0;
  /// Its file runs as a program of its own (a `__main__` block, training at module level, a notebook),
  /// rather than a library module another script drives (`trainer/dpo_trainer.py`).
  bool runnable = false;
  std::string file() const { return name.substr(0, name.rfind(':')); }
};

/// One training script's own verdict (a repo with several training entry points judged per script):
/// the findings its entry points reach, normalised by the lines they reach.
struct EntryVerdict {
  std::string entry;  ///< the script's path ("litgpt/finetune/lora.py")
  score::Verdict verdict = score::Verdict::dual_run;
  std::uint32_t readiness = 0;
  std::string reason;          ///< the first reason of its assessment
  std::uint32_t findings = 0;  ///< counted findings its entry points reach
  bool runnable = false;       ///< one of its entry points is TrainingEntry::runnable
};

struct Report {
  RunInfo run;
  TargetProfile target = TargetProfile::native;
  ScanInfo scan;
  std::vector<rules::Finding> findings;             ///< sorted by (path, line, column, rule_id); ids F0001...
  std::vector<Problem> problems;                    ///< sorted by (path, line, kind)
  std::vector<RuleInfo> rules;                      ///< the rules that fired, sorted by id
  OperatorSummary operators;                        ///< torch ops used vs the Neuron operator table
  TrainingSetup setup;                              ///< how the repo trains
  std::vector<TrainingEntry> training_entries;      ///< per training entry point (repository model)
  std::optional<score::Assessment> recommendation;  ///< the verdict for the whole repo
  std::vector<score::Assessment> projects;          ///< per-project verdicts (monorepos), may be empty
  std::vector<EntryVerdict> entry_verdicts;         ///< per training script, when the repo has several
  std::optional<GateSummary> gate;  ///< set when a gate, a baseline or a diff was asked for (or the scan is incomplete)
  pilot::PilotFacts pilot;          ///< the pilot request's code-side fields (format `plan`)
};

/// Counts by category/severity over unsuppressed findings (zero entries included, contract order).
std::map<std::string, std::uint32_t> count_by_category(const Report& report);
std::map<std::string, std::uint32_t> count_by_severity(const Report& report);

/// Presentation choices that are not part of the report (the same report renders both ways).
struct RenderOptions {
  bool color = false;       ///< ANSI colours (text only)
  bool quiet = false;       ///< text: verdict and counts only
  bool all = false;         ///< text: every finding (info, each repeat, no line budget)
  std::size_t width = 100;  ///< text: columns reason bullets wrap at
  std::string link_base;    ///< Markdown/HTML: code links become absolute under this URL ("" = repo-relative)
  std::string link_full;    ///< Markdown: where the full report is ("" = name the SARIF/HTML artifact)
};

using RenderFn = void (*)(const Report&, const RenderOptions&, std::ostream&);
struct Format {
  std::string_view name;
  std::string_view extension;
  std::string_view description;
  RenderFn render;
};

/// Every output format (src/report/formats.cpp is the only list).
std::span<const Format> formats();
const Format* find_format(std::string_view name);

void render_json(const Report& report, const RenderOptions& options, std::ostream& out);           // json.cpp
void render_text(const Report& report, const RenderOptions& options, std::ostream& out);           // text.cpp
void render_plan_yaml(const Report& report, const RenderOptions& options, std::ostream& out);      // plan_yaml.cpp
void render_plan_markdown(const Report& report, const RenderOptions& options, std::ostream& out);  // plan_markdown.cpp

}  // namespace tr2audit::report
