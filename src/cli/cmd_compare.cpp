// `tr2audit compare gpu.json trn2.json`: checks a Trainium2 trial's run record against the GPU
// baseline's with the pilot request's tolerances (from --request plan.yaml, overridden by flags) and
// prints pass/fail per check and the cost per effective step when prices are known.
// Exit codes: 0 every check passed, 1 a check failed or was not tested, 2 usage error or a record
// that is not a run record (README "Exit codes").
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "tr2audit/core/file.hpp"
#include "tr2audit/pilot/record.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::cli {
namespace {

struct CompareCommand {
  std::string gpu, trn2, request;
  std::optional<double> loss_relative, resume_loss_jump, output_difference, gpu_price, trn2_price;
};

int usage_error(const std::string& message) {
  std::cerr << "tr2audit: compare: " << message << "\n";
  return k_exit_usage;
}

std::optional<nlohmann::json> load_record(const std::string& file, std::string& error) {
  const std::optional<std::string> text = read_file(file);
  if (!text) {
    error = file + ": cannot read";
    return std::nullopt;
  }
  nlohmann::json record = nlohmann::json::parse(*text, nullptr, false);
  if (record.is_discarded()) {
    error = file + ": not valid JSON";
    return std::nullopt;
  }
  if (const std::string why = pilot::validate_record(record); !why.empty()) {
    error = file + ": " + why;
    return std::nullopt;
  }
  return record;
}

/// pilot_request.tolerances of a plan written by `tr2audit plan` (bounded YAML loader).
bool read_tolerances(const std::string& file, pilot::Tolerances& out, std::string& error) {
  const std::optional<std::string> text = read_file(file);
  const rules::YamlDocument doc = rules::load_yaml_document(text ? *text : std::string());
  if (!text || !doc.ok) {
    error = file + ": " + (text ? doc.error : "cannot read");
    return false;
  }
  try {
    const YAML::Node t = doc.root["pilot_request"]["tolerances"];
    if (!t.IsMap()) {
      error = file + ": no pilot_request.tolerances";
      return false;
    }
    if (t["loss_relative"]) out.loss_relative = t["loss_relative"].as<double>();
    if (t["resume_loss_jump"]) out.resume_loss_jump = t["resume_loss_jump"].as<double>();
    if (t["output_difference"]) out.output_difference = t["output_difference"].as<double>();
  } catch (const YAML::Exception& e) {
    error = file + ": tolerances: " + e.what();
    return false;
  }
  return true;
}

int run_compare(const CompareCommand& cmd) {
  std::string error;
  pilot::Tolerances tolerances;
  if (!cmd.request.empty() && !read_tolerances(cmd.request, tolerances, error)) return usage_error(error);
  if (cmd.loss_relative) tolerances.loss_relative = *cmd.loss_relative;
  if (cmd.resume_loss_jump) tolerances.resume_loss_jump = *cmd.resume_loss_jump;
  if (cmd.output_difference) tolerances.output_difference = *cmd.output_difference;
  const auto gpu = load_record(cmd.gpu, error);
  if (!gpu) return usage_error(error);
  const auto trn2 = load_record(cmd.trn2, error);
  if (!trn2) return usage_error(error);
  if ((*gpu)["platform"] != "gpu" || (*trn2)["platform"] != "trn2")
    return usage_error("give the GPU record first and the trn2 record second");
  pilot::Comparison result;
  try {
    result = pilot::compare_records(*gpu, *trn2, tolerances, cmd.gpu_price, cmd.trn2_price);
  } catch (const nlohmann::json::exception& e) {
    return usage_error(std::string("a record field has the wrong type: ") + e.what());
  }
  for (const auto& check : result.checks)
    std::cout << pilot::to_string(check.outcome) << "  " << check.name << ": " << check.detail << "\n";
  for (const auto& cost : result.costs) std::cout << "cost  " << cost << "\n";
  std::cout << (result.passed() ? "pilot comparison passed\n" : "pilot comparison did not pass\n");
  return result.passed() ? k_exit_ok : k_exit_gate_failed;
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<CompareCommand>();
  CLI::App* sub = app.add_subcommand("compare", "Compare a GPU baseline's run record with a Trainium2 trial's");
  sub->add_option("gpu", cmd->gpu, "The GPU baseline's run record (JSON)")->required();
  sub->add_option("trn2", cmd->trn2, "The Trainium2 trial's run record (JSON)")->required();
  sub->add_option("--request", cmd->request, "The pilot request (tr2audit plan) whose tolerances apply");
  sub->add_option("--loss-tolerance", cmd->loss_relative, "Max relative loss difference at matching steps");
  sub->add_option("--resume-tolerance", cmd->resume_loss_jump, "Max relative loss change across a restart");
  sub->add_option("--output-tolerance", cmd->output_difference, "Max relative difference of an evaluation result");
  sub->add_option("--gpu-price", cmd->gpu_price, "GPU instance price per hour (overrides the record)");
  sub->add_option("--trn2-price", cmd->trn2_price, "Trainium2 instance price per hour (overrides the record)");
  sub->callback([cmd, &exit_code] { exit_code = run_compare(*cmd); });
}

}  // namespace tr2audit::cli
