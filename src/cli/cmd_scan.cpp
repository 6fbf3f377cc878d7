// `tr2audit scan PATH`: resolves settings (defaults < config file < flags), loads and configures the
// rules, scans with inline suppressions, applies the gate (baseline, PR diff, --fail-on) and renders
// the report. Exit codes: 0 passed, 1 gate failed, 2 usage/config error, 3 incomplete scan.
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/knowledge.hpp"
#include "cli/resources.hpp"
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
  bool stats = false;  ///< --stats: per-stage times, cache hits and the slowest files on stderr
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

ScanRequest request_of(const ScanCommand& cmd, const gate::Settings& settings, const rules::RuleSet& rules,
                       const std::string& today) {
  ScanRequest request;
  request.options.discovery.excludes = settings.exclude.value;
  request.options.discovery.respect_gitignore = !cmd.no_gitignore;
  request.options.discovery.max_file_size = settings.max_file_size.value;
  request.options.extraction.parse_budget = std::chrono::milliseconds(cmd.parse_budget_ms);
  request.options.discovery.follow_external_symlinks = cmd.follow_external_symlinks;
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
  request.options.cache_dir = resolve_cache_dir(cmd.no_cache, cmd.cache_dir, cmd.path);
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
  for (const auto& [format, file] : outputs) {
    if (file == "-") {
      render(cmd, *format, result, std::cout, true);
      text_on_stdout |= format->name == "text";
      continue;
    }
    std::ostringstream out;  // rendered whole, then renamed into place: never a half-written report
    render(cmd, *format, result, out, false);
    if (const std::string failed = write_file_atomically(file, out.str()); !failed.empty()) return usage_error(failed);
  }
  stats.render = std::chrono::steady_clock::now() - rendering;
  stats.total += stats.render;
  if (cmd.stats) std::cerr << pipeline::format_stats(stats);
  if (!text_on_stdout) {
    for (const auto& reason : decision.reasons) std::cerr << "tr2audit: gate " << reason << "\n";
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
  sub->add_flag("--stats", cmd->stats, "Print per-stage times, cache hits and the slowest files to stderr");
  sub->add_option(
         "--include-roles", cmd->include_roles,
         "Also judge code only these entry points reach (inference, export, tooling), e.g. to serve on Trainium2")
      ->delimiter(',');
  sub->callback([cmd, &exit_code] { exit_code = run_scan(*cmd); });
}

}  // namespace tr2audit::cli
