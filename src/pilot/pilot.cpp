// pilot: the stage's entry point and its name tables.
#include "tr2audit/pilot/pilot.hpp"

#include "pilot/burden.hpp"
#include "pilot/checks.hpp"
#include "pilot/fields.hpp"
#include "pilot/settings.hpp"

namespace tr2audit::pilot {

std::string_view to_string(Field field) {
  switch (field) {
    case Field::model:
      return "model";
    case Field::method:
      return "method";
    case Field::input_length:
      return "input_length";
    case Field::batch:
      return "batch";
    case Field::expected_steps:
      return "expected_steps";
    case Field::save_interval:
      return "save_interval";
    case Field::eval_metric:
      return "eval_metric";
    case Field::precision:
      return "precision";
    case Field::parallelism:
      return "parallelism";
  }
  return "unknown";
}

std::string_view to_string(ShapeBound bound) {
  switch (bound) {
    case ShapeBound::fixed:
      return "fixed";
    case ShapeBound::bucketed:
      return "bucketed";
    case ShapeBound::bounded:
      return "bounded";
    case ShapeBound::unbounded:
      return "unbounded";
    case ShapeBound::unknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view to_string(CheckStatus status) {
  switch (status) {
    case CheckStatus::pass:
      return "pass";
    case CheckStatus::fail:
      return "fail";
    case CheckStatus::unknown:
      return "unknown";
  }
  return "unknown";
}

PilotFacts build(const PilotInput& input) {
  const std::vector<std::string_view> keys = detail::known_keys();
  const detail::SettingTable table = detail::collect_settings(input.program, input.configs, keys);
  PilotFacts out;
  out.fields = detail::fill_fields(input, table);
  out.burden = detail::estimate_burden(input.findings, table);
  out.logged = detail::logged_fields(input, table);
  out.checks = detail::platform_checks(input, table, out.logged);
  out.configs_read = table.configs_read;
  return out;
}

}  // namespace tr2audit::pilot
