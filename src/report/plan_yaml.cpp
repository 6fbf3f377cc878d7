// The pilot request as YAML (format `plan`, and `tr2audit plan`): each field with its value and
// where it was found, or `not found` and a hint; the verdict, the GPU fallback condition, the plan
// steps, the compile-burden estimate, the platform checks and what the comparison record can take
// from the code's logging. Strings are written as JSON strings, which YAML reads as double-quoted.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "plan_common.hpp"
#include "renderers.hpp"

namespace tr2audit::report {
namespace {

std::string q(std::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void list(std::ostream& out, std::string_view indent, const std::vector<std::string>& items) {
  if (items.empty()) {
    out << " []\n";
    return;
  }
  out << "\n";
  for (const auto& item : items) out << indent << "- " << q(item) << "\n";
}

void fields(const Report& report, std::ostream& out) {
  out << "  fields:\n";
  for (const auto& field : report.pilot.fields) {
    out << "    " << pilot::to_string(field.field) << ":\n";
    if (field.found.empty()) {
      out << "      status: \"not found\"\n      hint: " << q(field.hint) << "\n";
      continue;
    }
    out << "      status: \"found\"\n      values:\n";
    for (const auto& ev : field.found) {
      out << "        - {name: " << q(ev.name) << ", value: " << q(ev.value) << ", at: " << q(ev.where) << "}\n";
    }
  }
  out << "    output_difference_accepted:\n      status: \"not found\"\n"
      << "      hint: \"state the evaluation difference from the GPU run you accept (see tolerances)\"\n";
}

void burden(const pilot::CompileBurden& b, std::ostream& out) {
  out << "  compile_burden:\n    bound: " << q(pilot::to_string(b.bound)) << "\n    summary: " << q(b.summary) << "\n";
  out << "    max_length: " << (b.max_length ? std::to_string(*b.max_length) : "null") << "\n";
  out << "    pad_to_multiple_of: " << (b.pad_multiple ? std::to_string(*b.pad_multiple) : "null") << "\n";
  out << "    sequence_shapes: " << b.sequence_shapes << "\n    batch_shapes: " << b.batch_shapes << "\n";
  out << "    graphs_per_epoch: " << (b.graphs ? std::to_string(b.graphs) : "null") << "\n";
  out << "    proposed_buckets: [";
  for (std::size_t i = 0; i < b.proposed_buckets.size(); ++i) out << (i ? ", " : "") << b.proposed_buckets[i];
  out << "]\n    sources:";
  list(out, "      ", b.sources);
  out << "    assumptions:";
  list(out, "      ", b.assumptions);
}

void checks(const Report& report, std::ostream& out) {
  out << "  platform_checks:\n";
  for (const auto& check : report.pilot.checks) {
    out << "    - id: " << q(check.id) << "\n      status: " << q(pilot::to_string(check.status))
        << "\n      detail: " << q(check.detail) << "\n      at:";
    list(out, "        ", check.where);
  }
}

void record(const Report& report, std::ostream& out) {
  out << "  comparison_record:\n    schema: \"tr2audit-run-record/1\"\n    logged_by_code:\n";
  for (const auto& field : report.pilot.logged) {
    out << "      " << field.record_field << ":";
    if (field.where.empty()) {
      out << " \"not logged yet\"\n";
      continue;
    }
    list(out, "        ", field.where);
  }
  out << "  tolerances:\n";
  for (const auto& t : plan::default_tolerances())
    out << "    " << t.name << ": " << t.value << "  # " << t.meaning << "\n";
}

void plan_steps(const Report& report, std::ostream& out) {
  out << "  plan_steps:";
  if (!report.recommendation || report.recommendation->plan.empty()) {
    out << " []\n";
    return;
  }
  out << "\n";
  for (const auto& step : report.recommendation->plan) {
    out << "    - step: " << q(step.step) << "\n      at:";
    std::vector<std::string> at(
        step.locations.begin(),
        step.locations.begin() + static_cast<long>(std::min<std::size_t>(3, step.locations.size())));
    list(out, "        ", at);
  }
}

}  // namespace

void render_plan_yaml(const Report& report, const RenderOptions&, std::ostream& out) {
  out << "# tr2audit pilot request: check every value, fill in what is `not found`\n";
  out << "pilot_request:\n  version: " << q(plan::k_request_version) << "\n  repository: " << q(report.scan.root)
      << "\n  verdict: " << q(plan::verdict_text(report)) << "\n  training_entries:";
  std::vector<std::string> entries;
  for (const auto& e : report.training_entries) entries.push_back(e.name);
  list(out, "    ", entries);
  out << "  configs_read:";
  list(out, "    ", report.pilot.configs_read);
  fields(report, out);
  out << "  gpu_fallback_when:";
  list(out, "    ", plan::fallback_conditions(report));
  plan_steps(report, out);
  burden(report.pilot.burden, out);
  checks(report, out);
  record(report, out);
}

}  // namespace tr2audit::report
