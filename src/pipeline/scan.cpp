// The scan in four phases: discover; extract every file in parallel (facts kept in file order);
// the repository model (program::Program: symbols, call graph, entry points, roles, repo-wide guards);
// match, snippets and operator lookups in parallel; then merge and sort.
#include "tr2audit/pipeline/scan.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <system_error>
#include <thread>
#include <tuple>

#include "tr2audit/core/parallel.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/gate/suppress.hpp"
#include "tr2audit/pilot/pilot.hpp"
#include "tr2audit/pipeline/projects.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/dependency_uses.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/op_usage.hpp"
#include "tr2audit/score/score.hpp"
#include "tr2audit/score/setup.hpp"

namespace tr2audit::pipeline {
namespace {

/// Per-file output of the matching phase.
struct FileOutcome {
  std::vector<rules::Finding> findings;
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

/// Entry indices of the program become indices into Report::training_entries. A scan without a training
/// entry point has nothing to tell apart: every finding counts as reached (a library is judged by its code).
void renumber_entries(rules::Finding& finding, const std::vector<std::uint32_t>& entry_index, bool has_entries) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t e : finding.entries) {
    if (e < entry_index.size() && entry_index[e] != UINT32_MAX) out.push_back(entry_index[e]);
  }
  finding.entries = std::move(out);
  if (!has_entries) finding.training_reached = true;
}

/// Code off the training path is reported at most low, so severity follows the training roles that reach
/// it: code that runs only in eval mode or while decoding, code inference or export reaches, test code,
/// and a tooling script's own code. Library code that only a benchmark in another file reaches keeps its
/// severity (its users train with it), as do a rule that names a severity for the finding's region
/// (`severity_by_region: {inference: medium}`) and positive signals.
void cap_off_training(rules::Finding& finding, const rules::RuleSet& rules) {
  if (!finding.off_training_path || finding.meta || finding.severity <= Severity::low) return;
  const auto has = [&](program::Role role) { return finding.roles.test(static_cast<std::size_t>(role)); };
  const bool decoding = (finding.guards & facts::guard_bit(facts::Guard::not_training)) != 0;
  // Code no entry point reaches, in a file its path files under inference, export or tooling.
  const bool unreached_tool = finding.roles.none() && finding.region &&
                              (*finding.region == facts::Region::inference ||
                               *finding.region == facts::Region::export_ || *finding.region == facts::Region::tooling);
  // Evaluation code no entry point reaches, in an evaluation place (rules::match set off_training_path).
  const bool unreached_evaluation = finding.roles.none() && finding.region == facts::Region::evaluation;
  const bool serving =
      has(program::Role::inference) || has(program::Role::export_) || unreached_tool || unreached_evaluation;
  // A script's own code (its entry is in the same file), or a script or notebook that does not train.
  const bool dead = finding.dead_code != program::DeadCode::live;
  const bool script =
      finding.in_script_without_training || finding.in_project_without_training || finding.in_vendored_project || dead;
  const bool own_script = starts_with(finding.reached_from, finding.path + ":") || script;
  if (!decoding && !serving && !own_script && finding.region != facts::Region::test) return;
  if (finding.category == Category::neuron_ready || finding.category == Category::training_setup) return;
  // A rule's region severity (`vllm-import`: {inference: medium}, for rollout workers a training run
  // starts) holds for code a training repo may run, not for a serving script that does not train.
  const rules::Rule* rule = rules.find(finding.rule_id);
  const bool serving_region =
      finding.region && (*finding.region == facts::Region::inference || *finding.region == facts::Region::export_ ||
                         *finding.region == facts::Region::tooling);
  if (!script && rule != nullptr && serving_region &&
      rule->severity_by_region[static_cast<std::size_t>(*finding.region)])
    return;
  finding.severity = Severity::low;
  finding.message += (finding.guards & facts::guard_bit(facts::Guard::not_training))
                         ? " (off the training path: runs only in eval mode, while decoding or when exporting)"
                     : dead ? program::dead_code_note(finding.dead_code)
                     : finding.in_vendored_project
                         ? " (off the training path: a vendored project, with its own manifest, that the repo's "
                           "training code does not reach)"
                     : finding.in_script_without_training
                         ? " (off the training path: this script does not train and no training entry point reaches it)"
                     : finding.in_project_without_training
                         ? " (off the training path: no code in this manifest's folder trains or runs in training)"
                     : unreached_evaluation && !has(program::Role::inference)
                         ? " (off the training path: evaluation code that no training entry point reaches)"
                         : " (off the training path: only inference, export, tooling or test code runs it)";
}

/// A notebook span points at the .ipynb as stored (the JSON line a diff, an editor or a CI
/// annotation shows); a finding's `cell` keeps the cell and the line inside it. Runs after
/// suppressions, which work in the concatenated code's lines.
void place_in_notebook(Span& span, const facts::FileFacts& file) {
  const auto place = [&](std::uint32_t& line, std::uint16_t& column) {
    if (line == 0 || line > file.notebook_places.size()) return;
    const FilePlace& at = file.notebook_places[line - 1];
    std::uint32_t extra = 0;
    auto escape = std::lower_bound(file.notebook_escapes.begin(), file.notebook_escapes.end(), JsonEscape{line, 0, 0});
    for (; escape != file.notebook_escapes.end() && escape->line == line && escape->column < column; ++escape)
      extra += escape->extra;
    line = at.line;
    column = column == 0 ? 0 : Span::column_of(at.column + column - 1 + extra);
  };
  place(span.line, span.column);
  place(span.end_line, span.end_column);
}

// `CUDAExtension(name="scaled_masked_softmax_cuda", ...)` in a setup.py below the repo's root: a kernel package
// built on its own (rules::weigh_extension_builds_by_use).
void collect_extension_builds(const std::string& path, const facts::FileFacts& facts,
                              std::vector<rules::ExtensionBuild>& builds) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos || path.compare(slash + 1, std::string::npos, "setup.py") != 0) return;
  for (const auto& call : facts.calls) {
    if (call.callee.dotted() != "torch.utils.cpp_extension.CUDAExtension") continue;
    std::string module;
    for (std::size_t a = 0; a < call.args.size() && module.empty(); ++a) {
      const facts::Argument& arg = call.args[a];
      if (arg.kind == facts::LiteralKind::string && (arg.keyword == "name" || (a == 0 && arg.keyword.empty())))
        module = arg.value.str();
    }
    if (!module.empty()) builds.push_back(rules::ExtensionBuild{path, call.at.line, std::move(module)});
  }
}

// Values that name a config file (`--deepspeed playground/zero3.json`, `deepspeed: ds_z3.json`,
// `TrainingArguments(deepspeed="ds_config.json")`): settings, launch flags, string arguments and assignments.
void collect_named_files(const facts::FileFacts& facts, std::vector<std::string>& out) {
  const auto add = [&](std::string_view value) {
    if (value.find(".json") != std::string_view::npos || value.find(".yaml") != std::string_view::npos ||
        value.find(".yml") != std::string_view::npos)
      out.emplace_back(value);
  };
  // A test's fixture path or an option's help text (`help="path to the deepspeed config (e.g. ds_config.json)"`)
  // names a file no run launches.
  if (facts.is_test) return;
  for (const auto& setting : facts.settings) add(setting.value);
  for (const auto& call : facts.calls) {
    for (const auto& arg : call.args) {
      if (arg.keyword != "help" && arg.keyword != "metadata" && arg.keyword != "description") add(arg.value);
    }
  }
  for (const auto& assign : facts.assigns) add(assign.value.value);
}

void count_file(report::ScanInfo& scan, const discover::SourceFile& file, const FileAnalysis& analysis) {
  if (!analysis.loaded) {
    ++scan.files_skipped;
    return;
  }
  ++scan.files_scanned;
  ++scan.files_by_kind[std::string(discover::to_string(file.kind))];
  if (file.kind != discover::FileKind::config && file.kind != discover::FileKind::conda_env)
    scan.lines += analysis.facts.lines;  // settings and environments are not code
  scan.files_with_syntax_errors += analysis.facts.has_syntax_errors ? 1 : 0;
}

/// The project (folder) of each finding and of each training entry, found once: assessing each project
/// over every finding would otherwise look the project up projects x findings times.
struct ProjectIndex {
  std::vector<std::string> of_finding;
  std::vector<std::string> of_entry;
};

ProjectIndex index_projects(const report::Report& report, const std::vector<std::string>& projects) {
  ProjectIndex index;
  if (projects.empty()) return index;
  index.of_finding.reserve(report.findings.size());
  for (const auto& finding : report.findings) index.of_finding.push_back(project_of(finding.path, projects));
  for (const auto& entry : report.training_entries) index.of_entry.push_back(project_of(entry.name, projects));
  return index;
}

score::Assessment assess_part(const report::Report& report, const score::ScoringPolicy& policy,
                              const std::string& project, const ProjectIndex& index) {
  const auto in_project = [&](const std::vector<std::string>& of, std::size_t i) {
    return project.empty() || of[i] == project;
  };
  std::vector<rules::Finding> findings;  // a project's own (the whole repo is scored in place)
  if (!project.empty()) {
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
      if (in_project(index.of_finding, i)) findings.push_back(report.findings[i]);
    }
  }
  score::ScoreInput input;
  input.findings = project.empty() ? std::span<const rules::Finding>(report.findings) : findings;
  input.operators = &report.operators;
  input.setup = &report.setup;
  input.target = report.target;
  input.project = project;
  for (std::size_t e = 0; e < report.training_entries.size(); ++e) {
    if (!in_project(index.of_entry, e)) continue;
    input.has_training_entry = true;
    input.training_entry_paths.push_back(report.training_entries[e].file());
  }
  input.files_scanned = report.scan.files_scanned;
  input.files_with_syntax_errors = report.scan.files_with_syntax_errors;
  input.lines = static_cast<std::uint32_t>(report.scan.lines);
  // The size of what trains: the repo's training path, or for a project the largest entry point in it.
  std::uint64_t size = report.scan.training_lines ? report.scan.training_lines : report.scan.lines;
  if (!project.empty()) {
    size = 0;
    for (std::size_t e = 0; e < report.training_entries.size(); ++e) {
      if (in_project(index.of_entry, e)) size = std::max(size, report.training_entries[e].lines);
    }
  }
  input.training_lines = static_cast<std::uint32_t>(std::min<std::uint64_t>(size, UINT32_MAX));
  return score::assess(input, policy);
}

/// Each training script judged on its own: the findings its entry points reach, normalised by the lines
/// they reach. Only for repos with two or more training scripts (one script is the repo verdict).
std::vector<report::EntryVerdict> judge_entries(const report::Report& report, const score::ScoringPolicy& policy,
                                                unsigned jobs) {
  std::map<std::string, std::vector<std::uint32_t>> by_file;  // script -> its entry indices
  for (std::uint32_t e = 0; e < report.training_entries.size(); ++e)
    by_file[report.training_entries[e].file()].push_back(e);
  std::vector<report::EntryVerdict> out;
  if (by_file.size() < 2) return out;
  // Each finding goes to the scripts of its entry points in one pass (a pass over every finding per
  // script grew with scripts x findings); file order and each script's finding order are kept.
  std::vector<const std::string*> script_of(report.training_entries.size());
  for (const auto& [file, entries] : by_file) {
    for (const std::uint32_t e : entries) script_of[e] = &file;
  }
  std::map<std::string, std::vector<const rules::Finding*>> reached_by;
  for (const auto& finding : report.findings) {
    const std::string* last = nullptr;
    std::vector<const std::string*> scripts;
    for (const std::uint32_t e : finding.entries) {
      if (e < script_of.size() && script_of[e] && script_of[e] != last &&
          std::find(scripts.begin(), scripts.end(), script_of[e]) == scripts.end())
        scripts.push_back(last = script_of[e]);
    }
    for (const std::string* script : scripts) reached_by[*script].push_back(&finding);
  }
  // Each script is assessed on its own, in parallel; the verdicts keep the scripts' order.
  std::vector<const std::pair<const std::string, std::vector<std::uint32_t>>*> scripts;
  for (const auto& script : by_file) scripts.push_back(&script);
  out.resize(scripts.size());
  parallel_for(scripts.size(), jobs, [&](unsigned, std::size_t s) {
    const auto& [file, entries] = *scripts[s];
    std::vector<rules::Finding> findings;
    if (const auto reached = reached_by.find(file); reached != reached_by.end()) {
      findings.reserve(reached->second.size());
      for (const rules::Finding* finding : reached->second) findings.push_back(*finding);
    }
    std::uint64_t lines = 0;
    bool runnable = false;
    for (const std::uint32_t e : entries) {
      lines = std::max(lines, report.training_entries[e].lines);
      runnable |= report.training_entries[e].runnable;
    }
    score::ScoreInput input;
    input.findings = findings;
    input.setup = &report.setup;
    input.target = report.target;
    input.project = file;
    input.files_scanned = report.scan.files_scanned;
    input.lines = static_cast<std::uint32_t>(std::min<std::uint64_t>(report.scan.lines, UINT32_MAX));
    input.training_lines = static_cast<std::uint32_t>(std::min<std::uint64_t>(lines, UINT32_MAX));
    const score::Assessment a = score::assess(input, policy);
    std::uint32_t counted = 0;
    for (const auto& c : a.categories) counted += c.findings;
    out[s] = report::EntryVerdict{file,    a.verdict, a.readiness, a.reasons.empty() ? "" : a.reasons[0].text,
                                  counted, runnable};
  });
  return out;
}

// A GPU-only blocker that only some training scripts reach (`train_mem.py` patches flash-attn into the model
// that `train.py` trains portably): the repo has a Trainium2-ready run and a GPU variant of it, which is
// what dual-run means. The repo verdict says so, and names both.
void confine_blockers(report::Report& report, const score::ScoringPolicy& policy) {
  if (!report.recommendation || report.recommendation->verdict != score::Verdict::gpu_keep ||
      report.recommendation->readiness < policy.dual_run_min_readiness)
    return;
  const report::EntryVerdict* ready = nullptr;
  std::vector<const report::EntryVerdict*> blocked;
  for (const auto& entry : report.entry_verdicts) {
    if (entry.verdict == score::Verdict::trainium2_pilot && entry.runnable &&
        (!ready || entry.readiness > ready->readiness))
      ready = &entry;
    if (entry.verdict == score::Verdict::gpu_keep) blocked.push_back(&entry);
  }
  if (!ready || blocked.empty()) return;
  std::string text = "The GPU-only blocker is reached from `" + blocked.front()->entry + "`";
  if (blocked.size() > 1) text += " and " + std::to_string(blocked.size() - 1) + " more training script(s)";
  text += ", not from `" + ready->entry + "` (readiness " + std::to_string(ready->readiness) +
          " on its own): pilot that run on Trainium2 and keep the GPU scripts as the fallback path.";
  auto& rec = *report.recommendation;
  rec.verdict = score::Verdict::dual_run;
  rec.reasons.insert(rec.reasons.begin(), score::Reason{std::move(text), {}});
}

using Clock = std::chrono::steady_clock;

/// What a file's facts depend on besides its own bytes and path: part of every cache key.
std::string cache_scope(const ScanOptions& options) {
  return build_identity() + "\n" + options.cache_scope + "\n" + std::string(to_string(options.target)) + "\n" +
         std::to_string(options.extraction.parse_budget.count()) + "\n" +
         std::to_string(options.extraction.max_error_spans);
}

std::vector<FileAnalysis> extract_all(const discover::DiscoveryResult& discovered, const ScanOptions& options,
                                      unsigned jobs, FactCache* cache) {
  const std::size_t count = discovered.files.size();
  std::vector<FileAnalysis> analyses(count);
  std::vector<std::unique_ptr<facts::Extractor>> extractors(jobs);  // one parser per worker
  std::atomic<std::size_t> done{0};
  parallel_for(count, jobs, [&](unsigned worker, std::size_t i) {
    if (!extractors[worker]) extractors[worker] = std::make_unique<facts::Extractor>(options.extraction);
    analyses[i] = analyze_file(discovered.files[i], *extractors[worker], options.discovery.max_file_size, cache);
    if (options.progress) options.progress(++done, count);
  });
  return analyses;
}

void record_stats(ScanStats& stats, const discover::DiscoveryResult& discovered,
                  const std::vector<FileAnalysis>& analyses, const std::vector<Nanos>& match_times,
                  const FactCache* cache) {
  std::vector<FileTime> files;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const FileAnalysis& a = analyses[i];
    stats.read += a.read;
    stats.parse += a.parse;
    stats.extract += a.extract;
    stats.match += match_times[i];
    stats.parsed += a.parsed ? 1 : 0;
    files.push_back(FileTime{discovered.files[i].rel_path, a.read + a.parse + a.extract + match_times[i]});
  }
  const std::size_t top = std::min<std::size_t>(10, files.size());
  std::partial_sort(files.begin(), files.begin() + static_cast<std::ptrdiff_t>(top), files.end(),
                    [](const FileTime& a, const FileTime& b) { return a.time > b.time; });
  files.resize(top);
  stats.slowest_files = std::move(files);
  stats.files = analyses.size();
  if (!cache) return;
  stats.cache_enabled = true;
  stats.cache_dir = cache->dir().generic_string();
  auto& counters = const_cast<FactCache*>(cache)->counters();
  stats.cache_hits = counters.hits;
  stats.cache_misses = counters.misses;
  stats.cache_bad = counters.bad;
  stats.cache_writes = counters.writes;
}

gate::SuppressOptions suppress_options(const ScanOptions& options, const rules::RuleSet& rules) {
  gate::SuppressOptions suppress{options.suppress_today, {}};
  for (const auto& rule : rules.rules()) suppress.known_rule_ids.push_back(rule.id);
  std::sort(suppress.known_rule_ids.begin(), suppress.known_rule_ids.end());
  return suppress;
}

}  // namespace

report::Report scan(const ScanOptions& options, const Knowledge& knowledge) {
  const auto started = Clock::now();
  ScanStats local_stats;
  ScanStats& stats = options.stats ? *options.stats : local_stats;
  report::Report report;
  report.target = options.target;
  report.scan.root = options.root.generic_string();
  discover::DiscoveryResult discovered = discover::discover(options.root, options.discovery);
  report.problems = std::move(discovered.problems);
  report.scan.files_skipped = discovered.skipped;
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  stats.jobs = jobs;
  const std::size_t count = discovered.files.size();
  stats.discover = Clock::now() - started;

  std::unique_ptr<FactCache> cache;
  if (!options.cache_dir.empty()) cache = std::make_unique<FactCache>(options.cache_dir, cache_scope(options));
  std::vector<FileAnalysis> analyses = extract_all(discovered, options, jobs, cache.get());
  release_free_heap();
  stats.peak_after_extract = peak_resident_bytes();
  apply_facts_budget(analyses, options.limits, report.scan, report.problems);
  std::vector<facts::FileFacts> all_facts(count);
  for (std::size_t i = 0; i < count; ++i) all_facts[i] = std::move(analyses[i].facts);
  const auto program_started = Clock::now();
  std::error_code ec;
  const bool single_file = std::filesystem::is_regular_file(options.root, ec);
  program::Program model = program::Program::build(std::move(all_facts), single_file,
                                                   rules::lockin_knowledge(knowledge.rules, options.target), jobs);
  stats.program = Clock::now() - program_started;
  for (const auto& pass : model.pass_times()) stats.slowest_passes.emplace_back(std::string(pass.pass), pass.time);
  std::stable_sort(stats.slowest_passes.begin(), stats.slowest_passes.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  stats.slowest_passes.resize(std::min<std::size_t>(8, stats.slowest_passes.size()));
  release_free_heap();
  stats.peak_after_program = peak_resident_bytes();

  // Training entry points (a training script's top level included), and the program's index of each.
  std::vector<std::uint32_t> entry_index(model.entry_points().size(), UINT32_MAX);
  for (std::size_t e = 0; e < model.entry_points().size(); ++e) {
    const auto& entry = model.entry_points()[e];
    if (!program::training_roles().test(static_cast<std::size_t>(entry.role))) continue;
    entry_index[e] = static_cast<std::uint32_t>(report.training_entries.size());
    const bool runnable = entry.function.index < 0 || model.runs_as_program(entry.function.file);
    report.training_entries.push_back(
        report::TrainingEntry{model.describe(entry.function), model.entry_lines(e), runnable});
  }
  report.scan.training_lines = model.training_lines();
  std::vector<FileOutcome> outcomes(count);
  std::vector<Nanos> match_times(count);
  // Operator uses fold into one tally per worker (a tally is order-independent): a tally per file held
  // a copy of each operator's name and path for every file until the merge.
  std::vector<rules::OperatorTally> tallies(jobs);
  parallel_for(count, jobs, [&](unsigned worker, std::size_t i) {
    if (!analyses[i].loaded) return;
    const auto matching = Clock::now();
    FileOutcome& out = outcomes[i];
    const program::FileId id{static_cast<std::uint32_t>(i)};
    out.findings = rules::match(program::FileView{model, id}, knowledge.rules, options.target, knowledge.op_table);
    const std::string text = out.findings.empty() ? std::string() : analyses[i].text.unpack();
    for (auto& finding : out.findings) {
      const rules::Rule* rule = knowledge.rules.find(finding.rule_id);
      rules::fill_snippet_and_fingerprint(finding, text, rule && rule->subject == rules::SubjectKind::method);
      // A single-file scan judges the file as its own training path: all of its code is reached.
      renumber_entries(finding, entry_index, !report.training_entries.empty() && !single_file);
    }
    if (knowledge.op_table) {
      const facts::FileFacts& facts = model.file(id);
      std::vector<rules::OpUse> uses = rules::collect_op_uses(
          facts, *knowledge.op_table, [&model](std::string_view method) { return model.defines_method(method); });
      if (!facts.notebook_places.empty()) {
        for (auto& use : uses) place_in_notebook(use.at, facts);
      }
      tallies[worker].add(uses);
    }
    match_times[i] = Clock::now() - matching;
  });
  // Matching was the last reader of the model's tables (roles, guards, lock-in): from here on only the
  // facts and each function's roles are read (the merge below, the pilot request), so the rest is freed
  // before the report is assembled, and each later stage's peak sits on what is left.
  std::vector<char> vendored(count);
  for (std::size_t i = 0; i < count; ++i) vendored[i] = model.vendored(program::FileId{static_cast<std::uint32_t>(i)});
  std::optional<program::CodeRoles> code_roles(std::in_place, std::move(model));
  release_free_heap();
  stats.peak_after_match = peak_resident_bytes();
  const gate::SuppressOptions suppress = suppress_options(options, knowledge.rules);
  rules::OperatorTally operators;
  for (const auto& tally : tallies) operators.merge(tally);
  tallies = {};
  std::size_t found = 0;
  for (const auto& outcome : outcomes) found += outcome.findings.size();
  report.findings.reserve(found);         // grown by doubling, the old and new arrays would be alive at once
  report::TrainingSetup setup_elsewhere;  // setup facts off the training path: their places are cited last
  for (std::size_t i = 0; i < count; ++i) {
    count_file(report.scan, discovered.files[i], analyses[i]);
    cap_findings(outcomes[i].findings, options.limits, report.scan, report.problems);
    const facts::FileFacts& facts = code_roles->file(program::FileId{static_cast<std::uint32_t>(i)});
    for (const auto& problem : facts.problems) report.problems.push_back(problem);
    if (!options.suppress_today.empty() && analyses[i].loaded && !facts.directives.empty())
      gate::apply_directives(facts, analyses[i].text.unpack(), suppress, outcomes[i].findings, report.problems);
    for (auto& finding : outcomes[i].findings) {
      if ((finding.roles & options.include_roles).any()) finding.off_training_path = false;  // --include-roles
      cap_off_training(finding, knowledge.rules);
      if (!facts.notebook_places.empty()) place_in_notebook(finding.at, facts);
      report.findings.push_back(std::move(finding));
    }
    outcomes[i].findings = {};  // moved out: the vector itself goes too
    // A vendored project's trainers and configs describe that project's runs, not this repo's.
    if (analyses[i].loaded && !vendored[i]) {
      const program::FileId id{static_cast<std::uint32_t>(i)};
      score::collect_setup(facts, report.setup, setup_elsewhere, [&](const facts::Context& ctx) {
        return (code_roles->roles_at(id, ctx) & program::training_roles()).any();
      });
    }
  }
  score::finalize_setup(report.setup, std::move(setup_elsewhere), !report.training_entries.empty());
  std::vector<rules::CodeFile> code;
  std::vector<rules::ExtensionBuild> builds;
  std::vector<std::string> named_files;  // values that name a .json/.yaml file (see collect_named_files)
  for (std::size_t i = 0; i < count; ++i) {
    const facts::FileFacts& facts = code_roles->file(program::FileId{static_cast<std::uint32_t>(i)});
    if (facts.kind != discover::FileKind::python && facts.kind != discover::FileKind::notebook) continue;
    collect_extension_builds(discovered.files[i].rel_path, facts, builds);
    collect_named_files(facts, named_files);
    rules::CodeFile file{discovered.files[i].rel_path, {}, facts.is_test};
    for (const auto& import : facts.imports) file.imported.push_back(to_lower(import.module.first_segment()));
    code.push_back(std::move(file));
  }
  rules::weigh_extension_builds_by_use(report.findings, knowledge.rules, builds);
  for (std::size_t i = 0; i < count; ++i) {  // config files' settings and launch flags name files too
    const facts::FileFacts& facts = code_roles->file(program::FileId{static_cast<std::uint32_t>(i)});
    if (facts.kind != discover::FileKind::python && facts.kind != discover::FileKind::notebook)
      collect_named_files(facts, named_files);
  }
  rules::weigh_config_settings_by_reference(report.findings, knowledge.rules, named_files);
  rules::weigh_imports_by_use(report.findings, knowledge.rules);
  rules::weigh_dependencies_by_use(report.findings, knowledge.rules, code);
  number_findings(report.findings);
  std::sort(report.problems.begin(), report.problems.end());
  report.rules = rules_that_fired(report.findings, knowledge.rules);
  gate::add_suppression_rule_info(report);
  std::vector<pilot::ConfigText> configs;
  for (std::size_t i = 0; i < count; ++i) {
    if (discovered.files[i].kind == discover::FileKind::config && analyses[i].loaded)
      configs.push_back(pilot::ConfigText{discovered.files[i].rel_path, analyses[i].text.unpack()});
    analyses[i].text = {};  // every snippet is cut: the texts leave before the pilot request is built
  }
  // The pilot request reads the facts, the roles and the findings; scoring reads only the findings.
  std::vector<std::string> projects;
  if (knowledge.policy) projects = find_projects(discovered.files, code_roles->files());
  const auto scoring = Clock::now();
  report.pilot = pilot::build(pilot::PilotInput{*code_roles, configs, report.setup, report.findings});
  code_roles.reset();  // the facts go before scoring and rendering allocate
  configs = {};
  release_free_heap();
  if (knowledge.op_table) report.operators = operators.summarize(*knowledge.op_table, options.target);
  if (knowledge.policy) {
    for (const auto& project : projects) {
      report.projects.emplace_back();
      report.projects.back().project = project;
    }
    rescore(report, *knowledge.policy, jobs);
  }
  stats.score = Clock::now() - scoring;
  std::map<std::string, std::size_t> per_rule;
  for (const auto& finding : report.findings) ++per_rule[finding.rule_id];
  stats.busiest_rules.assign(per_rule.begin(), per_rule.end());
  std::stable_sort(stats.busiest_rules.begin(), stats.busiest_rules.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  stats.busiest_rules.resize(std::min<std::size_t>(10, stats.busiest_rules.size()));
  record_stats(stats, discovered, analyses, match_times, cache.get());
  stats.total = Clock::now() - started;
  return report;
}

void rescore(report::Report& report, const score::ScoringPolicy& policy, unsigned jobs) {
  const auto& kinds = report.scan.files_by_kind;
  const bool has_python = kinds.count("python") || kinds.count("python-stub") || kinds.count("notebook");
  if (!has_python) {  // nothing to judge: no verdict rather than a confident "pilot" for an empty tree
    report.recommendation.reset();
    report.projects.clear();
    return;
  }
  std::vector<std::string> projects;
  for (const auto& project : report.projects) projects.push_back(project.project);
  const ProjectIndex index = index_projects(report, projects);
  report.recommendation = assess_part(report, policy, "", index);
  parallel_for(report.projects.size(), jobs, [&](unsigned, std::size_t p) {
    report.projects[p] = assess_part(report, policy, report.projects[p].project, index);
  });
  report.entry_verdicts = judge_entries(report, policy, jobs);
  confine_blockers(report, policy);
}

}  // namespace tr2audit::pipeline
