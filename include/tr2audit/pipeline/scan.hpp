// pipeline/scan: sequences the stages for a whole repo: discover -> (per file, in parallel: load,
// parse+extract, resolve import origins, match) -> sort -> Report. Each worker thread owns its
// parser and detectors; results are merged in file order, so output is identical for any --jobs.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/pipeline/limits.hpp"
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

/// Scores the report again (whole repo and each project in report.projects), e.g. after the gate
/// suppressed or re-rated findings: suppressed findings must not weigh on the verdict.
void rescore(report::Report& report, const score::ScoringPolicy& policy);

/// Loads and extracts one file on its own (facts only: repo-wide meaning comes from program::Program).
struct FileAnalysis {
  facts::FileFacts facts;
  std::string text;  ///< the scanned text (a notebook's code), for snippets
  bool loaded = false;
};
FileAnalysis analyze_file(const discover::SourceFile& file, facts::Extractor& extractor, std::uint64_t max_file_size);

}  // namespace tr2audit::pipeline
