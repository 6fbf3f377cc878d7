// pipeline/scan: sequences the stages for a whole repo: discover -> (per file, in parallel: load,
// facts from the cache or parse+extract) -> the repository model -> (per file, in parallel: match)
// -> merge in file order, inline suppressions -> sort -> score once -> Report. Each worker thread owns
// its parser and detectors, so output is identical for any --jobs and with or without the cache.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tr2audit/core/packed_text.hpp"
#include "tr2audit/core/severity.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/pipeline/fact_cache.hpp"
#include "tr2audit/pipeline/limits.hpp"
#include "tr2audit/pipeline/scan_stats.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/report/report.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::pipeline {

struct ScanOptions {
  std::filesystem::path root;
  discover::DiscoveryOptions discovery;
  facts::ExtractOptions extraction;
  TargetProfile target = TargetProfile::native;
  unsigned jobs = 0;               ///< 0 = all cores
  program::RoleSet include_roles;  ///< code only these (non-training) roles reach still counts for the verdict
  ScanLimits limits;
  /// The result cache folder; empty = no cache. Facts of unchanged files are read from it.
  std::filesystem::path cache_dir;
  /// Everything outside the tool build and the file that a file's facts may depend on (the bytes of the
  /// rules, operator table and scoring policy): part of every cache key.
  std::string cache_scope;
  /// When set (today's date, YYYY-MM-DD), inline suppressions (`# tr2audit: ignore[...]`, collected
  /// with each file's facts) are applied before scoring; empty = findings are reported unsuppressed.
  std::string suppress_today;
  /// When set, the scan records where its time went (`--stats`).
  ScanStats* stats = nullptr;
  /// Called from worker threads after each file (done, total); may be empty.
  std::function<void(std::size_t, std::size_t)> progress;
};

/// What a scan judges with: the rules and, when loaded, the Neuron operator table.
struct Knowledge {
  const rules::RuleSet& rules;
  const rules::OpTable* op_table = nullptr;
  const score::ScoringPolicy* policy = nullptr;  ///< no verdict without one
};

/// Scans a repo and returns the report (run info left for the caller to stamp).
report::Report scan(const ScanOptions& options, const Knowledge& knowledge);

/// Scores the report (whole repo and each project in report.projects); again after the gate re-rated
/// findings: suppressed findings must not weigh on the verdict.
/// `jobs` threads assess the projects and the training scripts (the verdicts never depend on it).
void rescore(report::Report& report, const score::ScoringPolicy& policy, unsigned jobs = 1);

/// Loads and extracts one file on its own (facts only: repo-wide meaning comes from program::Program).
struct FileAnalysis {
  facts::FileFacts facts;
  PackedText text;  ///< the scanned text (a notebook's code), packed until its findings' snippets are cut
  bool loaded = false;
  bool parsed = false;     ///< tree-sitter ran (not a cache hit, not a manifest)
  bool cache_hit = false;  ///< the facts came from the cache
  Nanos read{0}, parse{0}, extract{0};
};
/// cache: when given, a Python file's facts are read from it when present and written to it when not.
FileAnalysis analyze_file(const discover::SourceFile& file, facts::Extractor& extractor, std::uint64_t max_file_size,
                          FactCache* cache = nullptr);

}  // namespace tr2audit::pipeline
