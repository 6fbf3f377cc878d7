// Caps per file: findings per rule and per file, and the scan's facts budget in discovery order.
#include "tr2audit/pipeline/limits.hpp"

#include <map>
#include <string>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/pipeline/scan.hpp"

namespace tr2audit::pipeline {
namespace {

template <class T>
std::uint64_t payload(const std::vector<T>& items) {
  return items.capacity() * sizeof(T);
}

std::uint64_t text_bytes(const FactString& text) {
  // A pooled string's text is counted once, in the pool; an owned one is its own block.
  return text.empty() || text.pooled() ? 0 : text.size() + sizeof(std::uint32_t) + 1;
}

std::uint64_t name_bytes(const QualifiedName& name) {
  return text_bytes(name.dotted());
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 20)) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1ull << 10)) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

void cap_findings(std::vector<rules::Finding>& findings, const ScanLimits& limits, report::ScanInfo& scan,
                  std::vector<Problem>& problems) {
  const std::uint32_t per_file = limits.max_findings_per_file;
  const std::uint32_t per_rule = limits.max_findings_per_rule_per_file;
  if ((per_file == 0 || findings.size() <= per_file) && per_rule == 0) return;
  std::map<std::string, std::uint32_t> by_rule;
  std::map<std::string, std::uint32_t> dropped_by_rule;
  std::vector<rules::Finding> kept;
  std::size_t dropped = 0;
  for (auto& finding : findings) {
    std::uint32_t& count = by_rule[finding.rule_id];
    const bool over = (per_rule != 0 && count >= per_rule) || (per_file != 0 && kept.size() >= per_file);
    if (over) {
      ++dropped;
      ++dropped_by_rule[finding.rule_id];
      continue;
    }
    ++count;
    kept.push_back(std::move(finding));
  }
  if (dropped == 0) {
    findings = std::move(kept);
    return;
  }
  std::string detail;
  for (const auto& [rule, n] : dropped_by_rule) {
    detail += (detail.empty() ? "" : ", ") + rule + " " + std::to_string(n);
  }
  problems.push_back(Problem{ProblemKind::limit_reached, kept.empty() ? findings.front().path : kept.front().path, 0, 0,
                             std::to_string(dropped) + " more findings counted, not listed (" + detail +
                                 "; caps: " + std::to_string(per_rule) + " per rule, " + std::to_string(per_file) +
                                 " per file; --max-findings-per-rule, --max-findings-per-file)"});
  scan.findings_capped += dropped;
  findings = std::move(kept);
}

std::uint64_t facts_bytes(const facts::FileFacts& f) {
  std::uint64_t bytes = payload(f.error_spans) + payload(f.cell_first_lines) + payload(f.cell_numbers);
  bytes += payload(f.notebook_places) + payload(f.notebook_escapes);
  bytes += payload(f.imports) + payload(f.calls) + payload(f.decorators) + payload(f.assigns) + payload(f.devices);
  bytes += payload(f.patterns) + payload(f.dependencies) + payload(f.functions) + payload(f.classes);
  bytes +=
      payload(f.loops) + payload(f.problems) + payload(f.bound_calls) + payload(f.read_bindings) + payload(f.values);
  bytes += f.strings.added_bytes;
  for (const auto& call : f.calls) {
    bytes += name_bytes(call.callee) + text_bytes(call.callee_text) + text_bytes(call.method) +
             text_bytes(call.receiver_text);
  }
  for (const auto& import : f.imports) bytes += name_bytes(import.target) + name_bytes(import.module);
  return bytes;
}

void apply_facts_budget(std::vector<FileAnalysis>& analyses, const ScanLimits& limits, report::ScanInfo& scan,
                        std::vector<Problem>& problems) {
  if (limits.max_facts_bytes == 0) return;
  std::uint64_t total = 0;
  for (FileAnalysis& analysis : analyses) {
    if (!analysis.loaded) continue;
    const std::uint64_t bytes = facts_bytes(analysis.facts);
    if (total + bytes <= limits.max_facts_bytes) {
      total += bytes;
      continue;
    }
    problems.push_back(Problem{ProblemKind::limit_reached, analysis.facts.path, 0, 0,
                               "not scanned: its facts (" + size_text(bytes) + ") would pass the scan's " +
                                   size_text(limits.max_facts_bytes) + " facts budget (--max-facts-memory)"});
    const std::string path = analysis.facts.path;
    analysis = FileAnalysis{};
    analysis.facts.path = analysis.facts.strings(path);
    ++scan.files_over_facts_budget;
  }
}

}  // namespace tr2audit::pipeline
