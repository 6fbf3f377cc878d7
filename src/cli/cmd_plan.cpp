// `tr2audit plan PATH`: scans like `scan` (same settings, rules and suppressions) and writes the
// pilot request as YAML (default) or Markdown. `tr2audit plan --record-template DIR` writes the run
// record's JSON Schema and CSV header for the GPU baseline and the Trainium2 trial.
// Exit codes: 0 written, 2 usage or configuration error, 3 incomplete scan (see README).
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/knowledge.hpp"
#include "cli/scan_steps.hpp"
#include "cli/settings_flags.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/pilot/record.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::cli {
namespace {

struct PlanCommand {
  std::string path;
  std::string format = "yaml";
  std::string output = "-";
  std::string record_template;  ///< a folder: write the run record's schema and CSV header there
  SettingsFlags settings;
};

int usage_error(const std::string& message) {
  std::cerr << "tr2audit: plan: " << message << "\n";
  return k_exit_usage;
}

int write_record_template(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  const std::filesystem::path dir(folder);
  if (auto failed = write_file_atomically((dir / "run-record.schema.json").string(), pilot::record_schema());
      !failed.empty())
    return usage_error(failed);
  if (auto failed = write_file_atomically((dir / "run-record.csv").string(), pilot::record_csv_header());
      !failed.empty())
    return usage_error(failed);
  std::cout << "wrote " << (dir / "run-record.schema.json").generic_string() << " and "
            << (dir / "run-record.csv").generic_string() << " (" << pilot::k_record_schema_id << ")\n";
  return k_exit_ok;
}

/// The pipeline's settings for a scan of root (the parts of `scan` a plan needs: no gate).
ScanRequest request_for(const gate::Settings& settings, const rules::RuleSet& rules, const Knowledge& knowledge,
                        const std::string& today) {
  ScanRequest request;
  request.options.discovery.excludes = settings.exclude.value;
  request.options.discovery.max_file_size = settings.max_file_size.value;
  request.options.target = *parse_target_profile(settings.target.value);
  request.options.jobs = settings.jobs.value;
  request.rules = &rules;
  request.today = today;
  request.op_table = knowledge.op_table ? &*knowledge.op_table : nullptr;
  request.policy = knowledge.policy ? &*knowledge.policy : nullptr;
  return request;
}

int report_problems(const std::vector<Problem>& problems) {
  for (const auto& problem : problems) std::cerr << "tr2audit: " << format_problem(problem) << "\n";
  return k_exit_usage;
}

int run_plan(const PlanCommand& cmd) {
  if (!cmd.record_template.empty()) return write_record_template(cmd.record_template);
  if (cmd.path.empty()) return usage_error("give a PATH to scan, or --record-template DIR");
  std::error_code ec;
  if (!std::filesystem::exists(cmd.path, ec)) return usage_error(cmd.path + ": no such file or directory");
  if (cmd.format != "yaml" && cmd.format != "markdown")
    return usage_error("--format takes yaml or markdown, not '" + cmd.format + "'");
  const auto today = today_date();
  if (!today) return usage_error("TR2AUDIT_TODAY must be a date written YYYY-MM-DD");
  std::vector<Problem> problems;
  const std::optional<ScanSetup> setup = prepare_scan(cmd.path, cmd.settings, problems);
  if (!setup) return report_problems(problems);
  const gate::Settings& settings = setup->settings;
  const rules::RuleSet& rules = setup->rules;
  const Knowledge& knowledge = setup->knowledge;
  report::Report result = scan_with_suppressions(cmd.path, request_for(settings, rules, knowledge, *today));
  result.scan.root = cmd.path;
  std::ostringstream out;
  const report::RenderOptions options;
  if (cmd.format == "markdown") {
    report::render_plan_markdown(result, options, out);
  } else {
    report::render_plan_yaml(result, options, out);
  }
  if (cmd.output == "-") {
    std::cout << out.str();
  } else if (const std::string failed = write_file_atomically(cmd.output, out.str()); !failed.empty()) {
    return usage_error(failed);
  }
  return k_exit_ok;
}

}  // namespace

void register_plan(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<PlanCommand>();
  CLI::App* sub = app.add_subcommand(
      "plan", "Write the Trainium2 pilot request for a repository: fields with locations, compile burden, checks");
  sub->add_option("path", cmd->path, "Repository root or file to scan");
  sub->add_option("-f,--format", cmd->format, "yaml (default) or markdown");
  sub->add_option("-o,--output", cmd->output, "Write the request to FILE instead of stdout");
  sub->add_option("--record-template", cmd->record_template,
                  "Write the run record's JSON Schema and CSV header into DIR (for the GPU and Trainium2 runs)");
  add_settings_flags(sub, cmd->settings);
  sub->callback([cmd, &exit_code] { exit_code = run_plan(*cmd); });
}

}  // namespace tr2audit::cli
