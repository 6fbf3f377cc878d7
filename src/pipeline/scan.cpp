// The scan in four phases: discover; extract every file in parallel (facts kept in file order);
// the repository model (program::Program: symbols, call graph, entry points, roles, repo-wide guards);
// match, snippets and operator lookups in parallel; then merge and sort.
#include "tr2audit/pipeline/scan.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <tuple>

#include "tr2audit/pilot/pilot.hpp"
#include "tr2audit/pipeline/projects.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/op_usage.hpp"
#include "tr2audit/score/score.hpp"
#include "tr2audit/score/setup.hpp"

namespace tr2audit::pipeline {
namespace {

/// Runs work(worker, i) for i in [0, count) on `jobs` threads (worker in [0, jobs)); rethrows the
/// first exception. Items are taken in order from a shared counter; results go to slot i.
template <class Work>
void parallel_for(std::size_t count, unsigned jobs, Work&& work) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto run = [&](unsigned worker) {
    try {
      for (std::size_t i = next++; i < count; i = next++) work(worker, i);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(count, 1)));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(run, t);
  run(0);
  for (auto& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

/// Per-file output of the matching phase.
struct FileOutcome {
  std::vector<rules::Finding> findings;
  std::vector<rules::OpUse> op_uses;
};

void number_findings(std::vector<rules::Finding>& findings) {
  std::sort(findings.begin(), findings.end(), [](const rules::Finding& a, const rules::Finding& b) {
    return std::tie(a.path, a.at.line, a.at.column, a.rule_id, a.at.end_line, a.at.end_column) <
           std::tie(b.path, b.at.line, b.at.column, b.rule_id, b.at.end_line, b.at.end_column);
  });
  char id[24];  // "F" + up to 20 digits + NUL
  for (std::size_t i = 0; i < findings.size(); ++i) {
    std::snprintf(id, sizeof id, "F%04zu", i + 1);
    findings[i].id = id;
  }
}

std::vector<report::RuleInfo> rules_that_fired(const std::vector<rules::Finding>& findings,
                                               const rules::RuleSet& rules) {
  std::vector<report::RuleInfo> out;
  std::vector<std::string> ids;
  for (const auto& finding : findings) ids.push_back(finding.rule_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (const auto& id : ids) {
    const rules::Rule* rule = rules.find(id);
    if (!rule) continue;
    out.push_back(report::RuleInfo{rule->id, rule->title, std::string(to_string(rule->category)),
                                   std::string(to_string(rule->severity)), std::string(to_string(rule->confidence)),
                                   rule->why, rule->fix, rule->sources});
  }
  return out;
}

void count_file(report::ScanInfo& scan, const discover::SourceFile& file, const FileAnalysis& analysis) {
  if (!analysis.loaded) {
    ++scan.files_skipped;
    return;
  }
  ++scan.files_scanned;
  ++scan.files_by_kind[std::string(discover::to_string(file.kind))];
  if (file.kind != discover::FileKind::config) scan.lines += analysis.facts.lines;  // settings are not code
  scan.files_with_syntax_errors += analysis.facts.has_syntax_errors ? 1 : 0;
}

score::Assessment assess_part(const report::Report& report, const score::ScoringPolicy& policy,
                              const std::string& project, const std::vector<std::string>& projects) {
  std::vector<rules::Finding> findings;
  for (const auto& finding : report.findings) {
    if (project.empty() || project_of(finding.path, projects) == project) findings.push_back(finding);
  }
  score::ScoreInput input;
  input.findings = findings;
  input.operators = &report.operators;
  input.setup = &report.setup;
  input.target = report.target;
  input.project = project;
  input.has_training_entry = std::any_of(report.training_entries.begin(), report.training_entries.end(),
                                         [&](const std::string& entry) {
                                           return project.empty() || project_of(entry, projects) == project;
                                         });
  input.files_scanned = report.scan.files_scanned;
  input.files_with_syntax_errors = report.scan.files_with_syntax_errors;
  input.lines = static_cast<std::uint32_t>(report.scan.lines);
  return score::assess(input, policy);
}

}  // namespace

report::Report scan(const ScanOptions& options, const Knowledge& knowledge) {
  report::Report report;
  report.target = options.target;
  report.scan.root = options.root.generic_string();
  discover::DiscoveryResult discovered = discover::discover(options.root, options.discovery);
  report.problems = std::move(discovered.problems);
  report.scan.files_skipped = discovered.skipped;
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t count = discovered.files.size();

  std::vector<FileAnalysis> analyses(count);
  std::vector<std::unique_ptr<facts::Extractor>> extractors(jobs);  // one parser per worker
  std::atomic<std::size_t> done{0};
  parallel_for(count, jobs, [&](unsigned worker, std::size_t i) {
    if (!extractors[worker]) extractors[worker] = std::make_unique<facts::Extractor>(options.extraction);
    analyses[i] = analyze_file(discovered.files[i], *extractors[worker], options.discovery.max_file_size);
    if (options.progress) options.progress(++done, count);
  });
  apply_facts_budget(analyses, options.limits, report.scan, report.problems);
  std::vector<facts::FileFacts> all_facts(count);
  for (std::size_t i = 0; i < count; ++i) all_facts[i] = std::move(analyses[i].facts);
  std::error_code ec;
  const program::Program model =
      program::Program::build(std::move(all_facts), std::filesystem::is_regular_file(options.root, ec));

  for (const auto& entry : model.entry_points()) {
    if (program::training_roles().test(static_cast<std::size_t>(entry.role)) && entry.role != program::Role::setup)
      report.training_entries.push_back(model.describe(entry.function));
  }
  std::vector<FileOutcome> outcomes(count);
  parallel_for(count, jobs, [&](unsigned, std::size_t i) {
    if (!analyses[i].loaded) return;
    FileOutcome& out = outcomes[i];
    const program::FileId id{static_cast<std::uint32_t>(i)};
    out.findings = rules::match(program::FileView{model, id}, knowledge.rules, options.target);
    for (auto& finding : out.findings) rules::fill_snippet_and_fingerprint(finding, analyses[i].text);
    if (knowledge.op_table) out.op_uses = rules::collect_op_uses(model.file(id), *knowledge.op_table);
  });

  std::vector<rules::OpUse> op_uses;
  for (std::size_t i = 0; i < count; ++i) {
    count_file(report.scan, discovered.files[i], analyses[i]);
    cap_findings(outcomes[i].findings, options.limits, report.scan, report.problems);
    const facts::FileFacts& facts = model.file(program::FileId{static_cast<std::uint32_t>(i)});
    for (const auto& problem : facts.problems) report.problems.push_back(problem);
    for (auto& finding : outcomes[i].findings) {
      if ((finding.roles & options.include_roles).any()) finding.off_training_path = false;  // --include-roles
      report.findings.push_back(std::move(finding));
    }
    for (auto& use : outcomes[i].op_uses) op_uses.push_back(std::move(use));
    if (analyses[i].loaded) score::collect_setup(facts, report.setup);
  }
  score::finalize_setup(report.setup);
  number_findings(report.findings);
  std::sort(report.problems.begin(), report.problems.end());
  report.rules = rules_that_fired(report.findings, knowledge.rules);
  std::vector<pilot::ConfigText> configs;
  for (std::size_t i = 0; i < count; ++i) {
    if (discovered.files[i].kind == discover::FileKind::config && analyses[i].loaded)
      configs.push_back(pilot::ConfigText{discovered.files[i].rel_path, std::move(analyses[i].text)});
  }
  report.pilot = pilot::build(pilot::PilotInput{model, configs, report.setup, report.findings});
  if (knowledge.op_table) report.operators = rules::summarize_operators(op_uses, *knowledge.op_table, options.target);
  if (knowledge.policy) {
    for (const auto& project : find_projects(discovered.files, model.files())) {
      report.projects.emplace_back();
      report.projects.back().project = project;
    }
    rescore(report, *knowledge.policy);
  }
  return report;
}

void rescore(report::Report& report, const score::ScoringPolicy& policy) {
  const auto& kinds = report.scan.files_by_kind;
  const bool has_python = kinds.count("python") || kinds.count("python-stub") || kinds.count("notebook");
  if (!has_python) {  // nothing to judge: no verdict rather than a confident "pilot" for an empty tree
    report.recommendation.reset();
    report.projects.clear();
    return;
  }
  std::vector<std::string> projects;
  for (const auto& project : report.projects) projects.push_back(project.project);
  report.recommendation = assess_part(report, policy, "", projects);
  for (auto& project : report.projects) project = assess_part(report, policy, project.project, projects);
}

}  // namespace tr2audit::pipeline
