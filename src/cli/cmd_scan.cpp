// `tr2audit scan PATH`: resolves settings (defaults < config file < flags), loads and configures the
// rules, scans with inline suppressions, applies the gate (baseline, PR diff, --fail-on) and renders
// the report. Exit codes: 0 passed, 1 gate failed, 2 usage/config error, 3 incomplete scan.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/knowledge.hpp"
#include "cli/resources.hpp"
#include "cli/scan_cache.hpp"
#include "cli/scan_steps.hpp"
#include "cli/settings_flags.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/pipeline/git_info.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/yaml_load.hpp"
#include "tr2audit/score/policy.hpp"

namespace tr2audit::cli {
namespace {

struct ScanCommand {
  std::string path;
  std::vector<std::string> formats;  ///< --format, repeatable
  std::vector<std::string> outputs;  ///< -o, one per format in the same order ("-" = stdout)
  SettingsFlags settings;
  std::uint64_t parse_budget_ms = 20000;
  pipeline::ScanLimits limits;
  bool follow_external_symlinks = false;
  std::string baseline;
  std::string write_baseline;
  std::string diff_base;
  bool no_gitignore = false;
  bool no_color = false;
  bool quiet = false;
  bool all = false;       ///< --all: every finding in the text report (info, repeats, past the line budget)
  std::string link_base;  ///< --link-base: absolute code links in Markdown/HTML
  std::string link_full;  ///< --link-full: where the full report is (Markdown)
  std::vector<std::string> include_roles;  ///< --include-roles: inference, export, tooling count for the verdict
  std::string cache_dir;                   ///< --cache-dir
  bool no_cache = false;
  bool stats = false;  ///< --stats: per-stage times and peak memory, cache hits and the slowest files on stderr
};

int usage_error(const std::string& message) {
  std::cerr << "tr2audit: scan: " << message << "\n";
  return k_exit_usage;
}

int report_problems(const std::vector<Problem>& problems) {
  for (const auto& problem : problems) std::cerr << "tr2audit: " << format_problem(problem) << "\n";
  return k_exit_usage;
}

const report::Format* pick_format(const std::string& name) {
  const report::Format* format = report::find_format(name);
  if (format) return format;
  std::vector<std::string> names;
  for (const auto& f : report::formats()) names.emplace_back(f.name);
  const std::string lower = to_lower(name);
  // The YAML document tr2audit writes is the pilot request: point there, not at the nearest spelling.
  const bool yaml = lower == "yaml" || lower == "yml";
  const std::string hint = yaml ? "plan" : suggest(name, names);
  std::cerr << "tr2audit: scan: unknown --format '" << name << "'"
            << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << " (formats: ";
  for (std::size_t i = 0; i < names.size(); ++i) std::cerr << (i ? ", " : "") << names[i];
  std::cerr << ")\n";
  if (yaml) std::cerr << "tr2audit: the pilot request is YAML: `tr2audit plan PATH` (or `scan -f plan`)\n";
  return nullptr;
}

gate::FailOn criteria_of(const gate::Settings& settings) {
  gate::FailOn criteria;
  std::string ignored;  // validated by resolve_settings
  for (const auto& value : settings.fail_on.value) gate::add_fail_on(criteria, value, ignored);
  criteria.min_readiness = settings.min_readiness.value;
  criteria.problems = settings.fail_on_problems.value;
  return criteria;
}

discover::DiscoveryOptions discovery_of(const ScanCommand& cmd, const gate::Settings& settings) {
  discover::DiscoveryOptions discovery;
  discovery.excludes = settings.exclude.value;
  discovery.respect_gitignore = !cmd.no_gitignore;
  discovery.max_file_size = settings.max_file_size.value;
  discovery.follow_external_symlinks = cmd.follow_external_symlinks;
  return discovery;
}

ScanRequest request_of(const ScanCommand& cmd, const gate::Settings& settings, const rules::RuleSet& rules,
                       const std::string& today) {
  ScanRequest request;
  request.options.discovery = discovery_of(cmd, settings);
  request.options.extraction.parse_budget = std::chrono::milliseconds(cmd.parse_budget_ms);
  request.options.limits = cmd.limits;
  request.options.target = *parse_target_profile(settings.target.value);
  request.options.jobs = settings.jobs.value;
  if (isatty(STDERR_FILENO) && !cmd.quiet) {
    request.options.progress = [](std::size_t done, std::size_t total) {
      if (done % 64 == 0 || done == total) std::fprintf(stderr, "\rscanning %zu/%zu files", done, total);
      if (done == total) std::fprintf(stderr, "\r\x1b[K");
    };
  }
  request.rules = &rules;
  request.today = today;
  return request;
}

/// The terminal's width for wrapping reason bullets; 100 columns when not writing to a TTY.
std::size_t terminal_width(bool to_stdout) {
  winsize size{};
  if (to_stdout && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40)
    return size.ws_col;
  return 100;
}

void render(const ScanCommand& cmd, const report::Format& format, const report::Report& report, std::ostream& out,
            bool to_stdout) {
  report::RenderOptions options;
  options.color = to_stdout && isatty(STDOUT_FILENO) && !cmd.no_color && std::getenv("NO_COLOR") == nullptr;
  options.quiet = cmd.quiet;
  options.all = cmd.all;
  options.width = terminal_width(to_stdout);
  options.link_base = cmd.link_base;
  options.link_full = cmd.link_full;
  format.render(report, options, out);
}

int exit_code_of(report::GateStatus status) {
  switch (status) {
    case report::GateStatus::passed:
      return k_exit_ok;
    case report::GateStatus::failed:
      return k_exit_gate_failed;
    case report::GateStatus::incomplete:
      return k_exit_internal;
  }
  return k_exit_internal;
}

/// Pairs each --format with its -o (in order); one format may go to stdout. Empty on a usage error.
std::vector<std::pair<const report::Format*, std::string>> outputs_of(const ScanCommand& cmd) {
  const std::vector<std::string> names = cmd.formats.empty() ? std::vector<std::string>{"text"} : cmd.formats;
  std::vector<std::pair<const report::Format*, std::string>> out;
  if (names.size() > 1 && cmd.outputs.size() != names.size()) {
    usage_error("give one -o FILE per --format, in the same order (\"-\" writes that one to stdout)");
    return {};
  }
  if (cmd.outputs.size() > names.size()) {
    usage_error("more -o than --format options");
    return {};
  }
  std::size_t to_stdout = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const report::Format* format = pick_format(names[i]);
    if (!format) return {};
    std::string file = i < cmd.outputs.size() ? cmd.outputs[i] : "-";
    to_stdout += file == "-" ? 1 : 0;
    out.emplace_back(format, std::move(file));
  }
  if (to_stdout > 1) {
    usage_error("only one report can go to stdout");
    return {};
  }
  return out;
}

// Tripwire: a new ScanCommand field must be added to key_parts below (or said to not change the output).
static_assert(sizeof(ScanCommand) == 520, "ScanCommand changed: add the new field to key_parts() and update the size");

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += v + '\n';
  return out;
}

/// Everything besides the scanned files that the outputs and the exit code depend on (scan_cache.hpp).
/// nullopt when an input cannot be read (then there is no cache for this run).
std::optional<ScanKeyParts> key_parts(const ScanCommand& cmd, const gate::Settings& settings,
                                      const std::string& today) {
  ScanKeyParts key;
  auto& p = key.parts;
  std::error_code ec;
  p.push_back("path=" + cmd.path);
  p.push_back("cwd=" + std::filesystem::current_path(ec).generic_string());
  p.push_back("formats=" + joined(cmd.formats));
  p.push_back("outputs=" + joined(cmd.outputs));
  p.push_back("budget=" + std::to_string(cmd.parse_budget_ms));
  p.push_back("limits=" + std::to_string(cmd.limits.max_findings_per_file) + "," +
              std::to_string(cmd.limits.max_findings_per_rule_per_file) + "," +
              std::to_string(cmd.limits.max_facts_bytes));
  p.push_back(std::string("flags=") + (cmd.follow_external_symlinks ? "F" : "f") + (cmd.no_gitignore ? "G" : "g") +
              (cmd.no_color ? "C" : "c") + (cmd.quiet ? "Q" : "q") + (cmd.all ? "A" : "a"));
  p.push_back("links=" + cmd.link_base + "\n" + cmd.link_full);
  p.push_back("roles=" + joined(cmd.include_roles));
  if (!cmd.baseline.empty()) {
    const auto bytes = read_file(cmd.baseline);
    if (!bytes) return std::nullopt;
    p.push_back("baseline=" + *bytes);
  }
  p.push_back("target=" + settings.target.value);
  p.push_back("exclude=" + joined(settings.exclude.value));
  p.push_back("enable=" + joined(settings.enable.value) + "disable=" + joined(settings.disable.value));
  for (const auto& [id, severity] : settings.severity.value) p.push_back("severity=" + id + "=" + severity);
  p.push_back("fail_on=" + joined(settings.fail_on.value));
  p.push_back("min_readiness=" +
              (settings.min_readiness.value ? std::to_string(*settings.min_readiness.value) : std::string("-")));
  p.push_back(std::string("fail_on_problems=") + (settings.fail_on_problems.value ? "1" : "0"));
  p.push_back("max_file_size=" + std::to_string(settings.max_file_size.value));
  p.push_back("knowledge=" + knowledge_digest(rule_folders(settings.rules.value)));
  if (!settings.config_file.empty()) {
    const auto bytes = read_file(settings.config_file);
    if (!bytes) return std::nullopt;
    p.push_back("config=" + settings.config_file + "\n" + *bytes);
  }
  p.push_back("today=" + today);
  if (const auto git = pipeline::read_git_info(cmd.path))
    p.push_back("git=" + git->commit + "\n" + git->branch + "\n" + git->prefix);
  p.push_back("tty=" + std::to_string(isatty(STDOUT_FILENO)) + std::to_string(isatty(STDERR_FILENO)) + "," +
              std::to_string(terminal_width(true)) + "," + (std::getenv("NO_COLOR") ? "nocolor" : "color"));
  return key;
}

/// Writes a cached scan's outputs as this run's (its own start time and duration) and returns its exit code.
int replay(const ScanCommand& cmd, const CachedScan& cached, std::chrono::steady_clock::time_point started,
           const std::string& started_at) {
  const auto ms = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  for (const auto& output : cached.outputs) {
    const std::string bytes = restamp(output.bytes, cached, started_at, ms);
    if (output.destination == "-") {
      std::cout << bytes << std::flush;
      continue;
    }
    if (const std::string failed = write_file_atomically(output.destination, bytes); !failed.empty())
      return usage_error(failed);
  }
  if (cmd.stats)
    std::cerr << "tr2audit stats: whole-scan cache hit: no file changed since the same scan; nothing was parsed (" << ms
              << " ms)\n";
  if (!cached.text_on_stdout) {
    for (const auto& line : cached.stderr_lines) std::cerr << line << "\n";
  }
  return cached.exit_code;
}

int run_scan(const ScanCommand& cmd) {
  std::error_code ec;
  if (!std::filesystem::exists(cmd.path, ec)) return usage_error(cmd.path + ": no such file or directory");
  if (cmd.link_full.size() > 2048 || cmd.link_base.size() > 2048)
    return usage_error("--link-full and --link-base take a URL of at most 2048 characters");
  const auto outputs = outputs_of(cmd);
  if (outputs.empty()) return k_exit_usage;
  const auto today = today_date();
  if (!today) return usage_error("TR2AUDIT_TODAY must be a date written YYYY-MM-DD");
  program::RoleSet include_roles;
  for (const std::string& name : cmd.include_roles) {
    const auto role = program::parse_role(name);
    if (!role ||
        (*role != program::Role::inference && *role != program::Role::export_ && *role != program::Role::tooling))
      return usage_error("--include-roles takes inference, export or tooling, not '" + name + "'");
    include_roles.set(static_cast<std::size_t>(*role));
  }
  std::vector<Problem> problems;
  // The whole-scan cache first: when nothing the scan reads has changed, the rules are not even loaded.
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string started_at = utc_timestamp();
  const std::filesystem::path cache_dir = resolve_cache_dir(cmd.no_cache, cmd.cache_dir, cmd.path);
  std::optional<pipeline::Digest> scan_cache_key;
  if (!cache_dir.empty() && cmd.diff_base.empty() && cmd.write_baseline.empty()) {
    const gate::Settings early = resolve_settings(cmd.path, cmd.settings, problems);
    if (!problems.empty()) return report_problems(problems);
    if (const auto parts = key_parts(cmd, early, *today)) {
      const discover::DiscoveryResult discovered = discover::discover(cmd.path, discovery_of(cmd, early));
      const unsigned jobs = early.jobs.value ? early.jobs.value : std::max(1u, std::thread::hardware_concurrency());
      scan_cache_key = scan_key(*parts, discovered, jobs);
      if (scan_cache_key) {
        if (const auto hit = load_cached_scan(cache_dir, *scan_cache_key))
          return replay(cmd, *hit, wall_start, started_at);
      }
    }
  }
  const std::optional<ScanSetup> setup = prepare_scan(cmd.path, cmd.settings, problems);
  if (!setup) return report_problems(problems);
  const gate::Settings& settings = setup->settings;
  const rules::RuleSet& rules = setup->rules;
  const Knowledge& knowledge = setup->knowledge;
  std::optional<gate::DiffContext> diff;
  std::string error;
  if (!cmd.diff_base.empty()) {
    diff = gate::load_diff(cmd.path, cmd.diff_base, error);
    if (!diff) return usage_error("--diff-base: " + error);
  }
  ScanRequest request = request_of(cmd, settings, rules, *today);
  request.options.include_roles = include_roles;
  request.options.cache_dir = cache_dir;
  if (!request.options.cache_dir.empty())
    request.options.cache_scope = knowledge_digest(rule_folders(settings.rules.value));
  pipeline::ScanStats stats;
  if (cmd.stats) request.options.stats = &stats;
  request.op_table = knowledge.op_table ? &*knowledge.op_table : nullptr;
  request.policy = knowledge.policy ? &*knowledge.policy : nullptr;
  report::Report result = scan_with_suppressions(cmd.path, request);
  result.scan.root = cmd.path;
  result.scan.git = pipeline::read_git_info(cmd.path);
  if (!cmd.write_baseline.empty() && !write_baseline_file(cmd.write_baseline, result, error)) return usage_error(error);
  if (!cmd.baseline.empty() && !load_baseline_file(cmd.baseline, result, error)) return usage_error(error);
  if (diff) {
    gate::mark_changed_lines(result, diff->changed);
    if (!scan_diff_base(cmd.path, result, request, *diff, error)) {
      std::cerr << "tr2audit: scan: --diff-base: " << error << "\n";
      return k_exit_internal;
    }
  }
  const gate::FailOn criteria = criteria_of(settings);
  const gate::GateResult decision = gate::evaluate_gate(result, criteria);
  if (result.gate || criteria.any() || !decision.reasons.empty())
    gate::record_decision(result, decision, criteria.any());
  bool text_on_stdout = false;
  const auto rendering = std::chrono::steady_clock::now();
  CachedScan cached;
  for (const auto& [format, file] : outputs) {
    std::ostringstream out;  // rendered whole, then written (a file: renamed into place, never half-written)
    render(cmd, *format, result, out, file == "-");
    cached.outputs.push_back(CachedOutput{std::string(format->name), file, std::move(out).str()});
    const std::string& text = cached.outputs.back().bytes;
    if (file == "-") {
      std::cout << text << std::flush;
      text_on_stdout |= format->name == "text";
      continue;
    }
    if (const std::string failed = write_file_atomically(file, text); !failed.empty()) return usage_error(failed);
  }
  stats.render = std::chrono::steady_clock::now() - rendering;
  stats.total += stats.render;
  stats.peak_at_end = pipeline::peak_resident_bytes();
  if (cmd.stats) std::cerr << pipeline::format_stats(stats);
  if (!text_on_stdout) {
    for (const auto& reason : decision.reasons) std::cerr << "tr2audit: gate " << reason << "\n";
  }
  const bool machine_dependent = std::any_of(result.problems.begin(), result.problems.end(),
                                             [](const Problem& p) { return p.kind == ProblemKind::parse_timeout; });
  if (scan_cache_key && !machine_dependent) {
    cached.exit_code = exit_code_of(decision.status);
    cached.started_at = result.run.started_at;
    cached.duration_ms = result.run.duration_ms;
    cached.text_on_stdout = text_on_stdout;
    for (const auto& reason : decision.reasons) cached.stderr_lines.push_back("tr2audit: gate " + reason);
    store_cached_scan(cache_dir, *scan_cache_key, cached);  // best effort
  }
  return exit_code_of(decision.status);
}

}  // namespace

void register_scan(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<ScanCommand>();
  CLI::App* sub = app.add_subcommand("scan", "Scan a repository (or one file) and report its Trainium2 readiness");
  sub->add_option("path", cmd->path, "Repository root or file to scan")->required();
  sub->add_option(
         "-f,--format", cmd->formats,
         "Report format: text (default), json, sarif, markdown, html; repeat with one -o each to write several")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("-o,--output", cmd->outputs,
                  "Write the report to FILE instead of stdout (one per --format, in order)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_settings_flags(sub, cmd->settings);
  sub->add_option("--baseline", cmd->baseline, "Report and gate only findings not recorded in FILE (new debt)");
  sub->add_option("--write-baseline", cmd->write_baseline, "Record the current findings in FILE as the baseline");
  sub->add_option("--diff-base", cmd->diff_base,
                  "Report and gate only findings on lines changed since `git merge-base GITREF HEAD`");
  sub->add_option("--parse-timeout-ms", cmd->parse_budget_ms, "Per-file parse time limit (default 20000)");
  sub->add_option("--max-findings-per-file", cmd->limits.max_findings_per_file,
                  "List at most N findings per file, count the rest (default 500; 0 = no cap)");
  sub->add_option("--max-findings-per-rule", cmd->limits.max_findings_per_rule_per_file,
                  "List at most N findings of one rule per file, count the rest (default 100; 0 = no cap)");
  sub->add_option("--max-facts-memory", cmd->limits.max_facts_bytes,
                  "Facts budget in bytes for the whole scan; later files are skipped (default 2 GiB; 0 = no cap)");
  sub->add_flag("--follow-external-symlinks", cmd->follow_external_symlinks,
                "Read symlinks whose target is outside the scanned folder (off: each is a problem)");
  sub->add_flag("--no-gitignore", cmd->no_gitignore, "Also scan files that .gitignore ignores");
  sub->add_flag("--no-color", cmd->no_color, "No ANSI colours (also: NO_COLOR)");
  sub->add_flag("-q,--quiet", cmd->quiet, "Summary only");
  sub->add_flag("--all", cmd->all,
                "Text report: every finding (info findings, each repeat, no line budget) instead of the summary view");
  sub->add_option("--link-base", cmd->link_base,
                  "Markdown/HTML: make code links absolute under URL (e.g. https://github.com/ORG/REPO/blob/SHA)");
  sub->add_option("--link-full", cmd->link_full, "Markdown: link to the full report at URL (e.g. the HTML artifact)");
  sub->add_option("--cache-dir", cmd->cache_dir,
                  "Keep each file's facts in DIR between scans (default $XDG_CACHE_HOME/tr2audit, off under CI)");
  sub->add_flag("--no-cache", cmd->no_cache, "Neither read nor write the result cache");
  sub->add_flag("--stats", cmd->stats,
                "Print per-stage times and peak memory, cache hits and the slowest files to stderr");
  sub->add_option(
         "--include-roles", cmd->include_roles,
         "Also judge code only these entry points reach (inference, export, tooling), e.g. to serve on Trainium2")
      ->delimiter(',');
  sub->callback([cmd, &exit_code] { exit_code = run_scan(*cmd); });
}

}  // namespace tr2audit::cli
