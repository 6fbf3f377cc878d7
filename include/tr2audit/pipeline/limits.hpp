// pipeline/limits: the scan's caps on what one hostile file can cost. Findings per file and per
// rule per file (the rest are counted, not listed) and the memory kept for facts; every cap that
// is hit becomes a limit_reached Problem naming the file and is counted in report::ScanInfo.
#pragma once
#include <cstdint>
#include <vector>

#include "tr2audit/report/report.hpp"
#include "tr2audit/rules/finding.hpp"

namespace tr2audit::facts {
struct FileFacts;
}

namespace tr2audit::pipeline {

struct FileAnalysis;

struct ScanLimits {
  std::uint32_t max_findings_per_file = 500;           ///< --max-findings-per-file (0 = no cap)
  std::uint32_t max_findings_per_rule_per_file = 100;  ///< --max-findings-per-rule (0 = no cap)
  std::uint64_t max_facts_bytes = 2ull << 30;          ///< --max-facts-memory, whole scan (0 = no cap)
};

/// Keeps, per file, the first findings (in report order) within both caps; one Problem per file
/// that lost some; adds the number left out to scan.findings_capped. `findings` is one file's.
void cap_findings(std::vector<rules::Finding>& findings, const ScanLimits& limits, report::ScanInfo& scan,
                  std::vector<Problem>& problems);

/// An estimate of the heap a file's facts hold (vector payloads and the strings in them).
std::uint64_t facts_bytes(const facts::FileFacts& facts);

/// Walks the analyses in discovery order and drops the facts of every file past the scan's facts
/// budget (its file is then skipped with a Problem), so what is kept never depends on --jobs.
void apply_facts_budget(std::vector<FileAnalysis>& analyses, const ScanLimits& limits, report::ScanInfo& scan,
                        std::vector<Problem>& problems);

}  // namespace tr2audit::pipeline
