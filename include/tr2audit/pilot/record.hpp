// pilot/record: the comparison record both runs of a pilot keep (a GPU baseline and a Trainium2
// trial), as a versioned JSON Schema and a CSV header, and the comparison of two records against the
// pilot request's tolerances: loss-curve parity at matching steps, resume continuity, output
// difference, and the cost per effective training step when prices are given.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tr2audit::pilot {

inline constexpr std::string_view k_record_schema_id = "tr2audit-run-record/1";

/// The JSON Schema (draft 2020-12) of one run record.
std::string record_schema();
/// The header of the per-event CSV log a run can keep instead of (or before) writing the JSON record.
std::string record_csv_header();

struct Tolerances {
  double loss_relative = 0.05;      ///< inferred default: max |trn2 - gpu| / |gpu| at matching steps
  double resume_loss_jump = 0.10;   ///< inferred default: max relative loss change across a restart
  double output_difference = 0.02;  ///< inferred default: max relative difference of an evaluation result
};

enum class Outcome : std::uint8_t { pass, fail, untested };
std::string_view to_string(Outcome outcome);

struct CheckResult {
  std::string name;  ///< "loss-parity", "resume-continuity", "output-difference", "effective-steps"
  Outcome outcome = Outcome::untested;
  std::string detail;
};

struct Comparison {
  std::vector<CheckResult> checks;
  std::vector<std::string> costs;  ///< "gpu: $0.0123 per effective step", ... (only with prices)
  bool passed() const;             ///< every check passed
};

/// Why a record is not a valid run record ("" when it is): the schema id and required fields.
std::string validate_record(const nlohmann::json& record);

/// Compares two valid records. Prices (per hour) override the records' `price_per_hour`.
Comparison compare_records(const nlohmann::json& gpu, const nlohmann::json& trn2, const Tolerances& tolerances,
                           std::optional<double> gpu_price = std::nullopt,
                           std::optional<double> trn2_price = std::nullopt);

}  // namespace tr2audit::pilot
