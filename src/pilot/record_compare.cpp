// pilot/record_compare: two run records against the pilot request's tolerances.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tr2audit/pilot/record.hpp"

namespace tr2audit::pilot {
namespace {

using nlohmann::json;

std::string fixed(double value, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

double relative(double a, double b) {
  const double scale = std::max(std::fabs(b), 1e-12);
  return std::fabs(a - b) / scale;
}

std::map<long long, double> losses(const json& record) {
  std::map<long long, double> out;
  for (const auto& point : record.at("loss_curve")) {
    if (point.is_object() && point.contains("step") && point.contains("loss") && point["step"].is_number_integer() &&
        point["loss"].is_number())
      out[point["step"].get<long long>()] = point["loss"].get<double>();
  }
  return out;
}

CheckResult loss_parity(const json& gpu, const json& trn2, double tolerance) {
  CheckResult out{"loss-parity", Outcome::untested, ""};
  const auto a = losses(gpu), b = losses(trn2);
  std::size_t matched = 0;
  double worst = 0;
  long long worst_step = 0;
  for (const auto& [step, loss] : b) {
    const auto it = a.find(step);
    if (it == a.end()) continue;
    ++matched;
    if (const double diff = relative(loss, it->second); diff > worst || matched == 1) {
      worst = diff;
      worst_step = step;
    }
  }
  if (matched == 0) {
    out.detail = "no step is logged in both loss curves: log the loss at the same steps on both runs";
    return out;
  }
  out.outcome = worst <= tolerance ? Outcome::pass : Outcome::fail;
  out.detail = std::to_string(matched) + " matching steps; largest relative difference " + fixed(worst) + " at step " +
               std::to_string(worst_step) + " (tolerance " + fixed(tolerance) + ")";
  return out;
}

/// Every recovery of the trial: resumed from a step at or before the failure, loss continuing.
CheckResult resume_continuity(const json& trn2, double tolerance) {
  CheckResult out{"resume-continuity", Outcome::untested, ""};
  if (!trn2.contains("recoveries") || !trn2["recoveries"].is_array() || trn2["recoveries"].empty()) {
    out.detail = "the trial records no recovery: kill the job once and resume it from its last checkpoint";
    return out;
  }
  std::size_t n = 0;
  out.outcome = Outcome::pass;
  for (const auto& r : trn2["recoveries"]) {
    ++n;
    const long long failed = r.value("failed_at_step", -1LL), resumed = r.value("resumed_from_step", -1LL);
    std::string problem;
    if (resumed < 0 || failed < 0 || resumed > failed) problem = "resumed_from_step after failed_at_step";
    if (problem.empty() && r.contains("loss_before") && r.contains("loss_after") && r["loss_before"].is_number() &&
        r["loss_after"].is_number()) {
      const double jump = relative(r["loss_after"].get<double>(), r["loss_before"].get<double>());
      if (jump > tolerance)
        problem = "loss jumped " + fixed(jump) + " across the restart (tolerance " + fixed(tolerance) + ")";
    } else if (problem.empty()) {
      problem = "loss_before/loss_after not recorded";
    }
    if (!problem.empty()) {
      out.outcome = Outcome::fail;
      out.detail = "recovery " + std::to_string(n) + ": " + problem;
      return out;
    }
  }
  out.detail = std::to_string(n) + " recover" + (n == 1 ? "y" : "ies") + " continued within tolerance";
  return out;
}

CheckResult output_difference(const json& gpu, const json& trn2, double tolerance) {
  CheckResult out{"output-difference", Outcome::untested, ""};
  if (!gpu.contains("eval") || !trn2.contains("eval") || !gpu["eval"].is_object() || !trn2["eval"].is_object()) {
    out.detail = "evaluation results missing from a record";
    return out;
  }
  std::size_t shared = 0;
  std::string worst_name;
  double worst = -1;
  for (const auto& [name, value] : trn2["eval"].items()) {
    if (!gpu["eval"].contains(name) || !value.is_number() || !gpu["eval"][name].is_number()) continue;
    ++shared;
    const double diff = relative(value.get<double>(), gpu["eval"][name].get<double>());
    if (diff > worst) {
      worst = diff;
      worst_name = name;
    }
  }
  if (shared == 0) {
    out.detail = "no evaluation metric is in both records";
    return out;
  }
  out.outcome = worst <= tolerance ? Outcome::pass : Outcome::fail;
  out.detail = std::to_string(shared) + " shared metric(s); largest relative difference " + fixed(worst) + " (" +
               worst_name + ", tolerance " + fixed(tolerance) + ")";
  return out;
}

std::optional<double> price_of(const json& record, std::optional<double> given) {
  if (given) return given;
  if (record.contains("price_per_hour") && record["price_per_hour"].is_number())
    return record["price_per_hour"].get<double>();
  return std::nullopt;
}

/// price x billed hours / effective steps; billed time = wall time (+ queue wait when billed separately: no).
std::optional<double> cost_per_step(const json& record, std::optional<double> price) {
  const long long steps = record.value("effective_steps", 0LL);
  if (!price || steps <= 0 || !record.contains("wall_time_s") || !record["wall_time_s"].is_number())
    return std::nullopt;
  return *price * record["wall_time_s"].get<double>() / 3600.0 / static_cast<double>(steps);
}

}  // namespace

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass:
      return "pass";
    case Outcome::fail:
      return "fail";
    case Outcome::untested:
      return "untested";
  }
  return "untested";
}

bool Comparison::passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.outcome == Outcome::pass; });
}

std::string validate_record(const json& record) {
  if (!record.is_object()) return "a run record is a JSON object";
  if (record.value("schema", std::string()) != k_record_schema_id)
    return "\"schema\" must be \"" + std::string(k_record_schema_id) + "\"";
  const std::string platform = record.value("platform", std::string());
  if (platform != "gpu" && platform != "trn2") return "\"platform\" must be \"gpu\" or \"trn2\"";
  if (!record.contains("effective_steps") || !record["effective_steps"].is_number_integer() ||
      record["effective_steps"].get<long long>() < 0)
    return "\"effective_steps\" must be a non-negative integer";
  if (!record.contains("loss_curve") || !record["loss_curve"].is_array()) return "\"loss_curve\" must be an array";
  return "";
}

Comparison compare_records(const json& gpu, const json& trn2, const Tolerances& tolerances,
                           std::optional<double> gpu_price, std::optional<double> trn2_price) {
  Comparison out;
  out.checks.push_back(loss_parity(gpu, trn2, tolerances.loss_relative));
  out.checks.push_back(resume_continuity(trn2, tolerances.resume_loss_jump));
  out.checks.push_back(output_difference(gpu, trn2, tolerances.output_difference));
  const auto gpu_cost = cost_per_step(gpu, price_of(gpu, gpu_price));
  const auto trn2_cost = cost_per_step(trn2, price_of(trn2, trn2_price));
  if (gpu_cost) out.costs.push_back("gpu: $" + fixed(*gpu_cost, 6) + " per effective step");
  if (trn2_cost) out.costs.push_back("trn2: $" + fixed(*trn2_cost, 6) + " per effective step");
  if (gpu_cost && trn2_cost && *gpu_cost > 0) out.costs.push_back("trn2 / gpu: " + fixed(*trn2_cost / *gpu_cost, 3));
  return out;
}

}  // namespace tr2audit::pilot
