// The comparison record: its schema and CSV header, record validation, and the checks of
// `tr2audit compare` (loss parity at matching steps, resume continuity, output difference, cost per
// effective step) on records shaped like a real GPU baseline and Trainium2 trial.
#include <catch2/catch.hpp>

#include "tr2audit/pilot/record.hpp"

using namespace tr2audit;
using nlohmann::json;
using pilot::Outcome;

namespace {

json record(std::string platform, std::vector<std::pair<int, double>> curve) {
  json r = {{"schema", "tr2audit-run-record/1"}, {"platform", platform},
            {"effective_steps", 1000},           {"wall_time_s", 7200.0},
            {"loss_curve", json::array()},       {"eval", {{"accuracy", 0.80}, {"ppl", 5.0}}}};
  for (auto [step, loss] : curve) r["loss_curve"].push_back({{"step", step}, {"loss", loss}});
  return r;
}

const pilot::CheckResult& named(const pilot::Comparison& c, std::string_view name) {
  for (const auto& check : c.checks) {
    if (check.name == name) return check;
  }
  FAIL("no check " << name);
  throw;
}

}  // namespace

TEST_CASE("record template: schema is versioned and names every field the guide asks for", "[pilot][record]") {
  const json schema = json::parse(pilot::record_schema());
  CHECK(schema["properties"]["schema"]["const"] == "tr2audit-run-record/1");
  for (const char* field : {"effective_steps", "seconds_per_step", "recoveries", "eval", "compile_time_s",
                            "cache_generation", "queue_wait_s", "restarts", "data_reload_s", "failed_runs",
                            "validation_work_hours", "loss_curve", "price_per_hour"}) {
    INFO(field);
    CHECK(schema["properties"].contains(field));
  }
  CHECK(schema["properties"]["recoveries"]["items"]["properties"].contains("steps_continued"));
  const std::string csv = pilot::record_csv_header();
  CHECK(csv.rfind("schema,platform,run_id,event,step,loss,", 0) == 0);
  CHECK(csv.back() == '\n');
}

TEST_CASE("record validation names what is wrong", "[pilot][record]") {
  CHECK(pilot::validate_record(record("gpu", {})).empty());
  CHECK(pilot::validate_record(json::array()) == "a run record is a JSON object");
  json r = record("gpu", {});
  r["schema"] = "tr2audit-run-record/0";
  CHECK_THAT(pilot::validate_record(r), Catch::Contains("\"schema\""));
  r = record("tpu", {});
  CHECK_THAT(pilot::validate_record(r), Catch::Contains("platform"));
  r = record("gpu", {});
  r["effective_steps"] = -3;
  CHECK_THAT(pilot::validate_record(r), Catch::Contains("effective_steps"));
}

TEST_CASE("compare: loss parity at matching steps, within and beyond tolerance", "[pilot][record]") {
  const json gpu = record("gpu", {{10, 2.00}, {20, 1.50}, {30, 1.20}});
  json trn2 = record("trn2", {{10, 2.02}, {20, 1.53}, {25, 9.0}});
  const auto ok = pilot::compare_records(gpu, trn2, {});
  CHECK(named(ok, "loss-parity").outcome == Outcome::pass);
  CHECK_THAT(named(ok, "loss-parity").detail, Catch::Contains("2 matching steps") && Catch::Contains("at step 20"));
  pilot::Tolerances strict;
  strict.loss_relative = 0.01;
  CHECK(named(pilot::compare_records(gpu, trn2, strict), "loss-parity").outcome == Outcome::fail);
  const auto none = pilot::compare_records(gpu, record("trn2", {{11, 2.0}}), {});
  CHECK(named(none, "loss-parity").outcome == Outcome::untested);
}

TEST_CASE("compare: resume continuity needs a recorded recovery whose loss continues", "[pilot][record]") {
  const json gpu = record("gpu", {{10, 2.0}});
  json trn2 = record("trn2", {{10, 2.0}});
  CHECK(named(pilot::compare_records(gpu, trn2, {}), "resume-continuity").outcome == Outcome::untested);
  trn2["recoveries"] = {
      {{"failed_at_step", 500}, {"resumed_from_step", 400}, {"loss_before", 1.80}, {"loss_after", 1.85}}};
  CHECK(named(pilot::compare_records(gpu, trn2, {}), "resume-continuity").outcome == Outcome::pass);
  trn2["recoveries"][0]["loss_after"] = 2.5;
  const auto jump = pilot::compare_records(gpu, trn2, {});
  CHECK(named(jump, "resume-continuity").outcome == Outcome::fail);
  CHECK_THAT(named(jump, "resume-continuity").detail, Catch::Contains("loss jumped"));
  trn2["recoveries"][0] = {{"failed_at_step", 100}, {"resumed_from_step", 400}};
  CHECK(named(pilot::compare_records(gpu, trn2, {}), "resume-continuity").outcome == Outcome::fail);
}

TEST_CASE("compare: output difference over shared metrics, and cost per effective step", "[pilot][record]") {
  json gpu = record("gpu", {{10, 2.0}});
  json trn2 = record("trn2", {{10, 2.0}});
  trn2["eval"]["accuracy"] = 0.79;  // 1.25% lower
  trn2["eval"]["bleu"] = 30.0;      // not in the baseline: ignored
  CHECK(named(pilot::compare_records(gpu, trn2, {}), "output-difference").outcome == Outcome::pass);
  trn2["eval"]["ppl"] = 5.5;  // 10% worse
  CHECK(named(pilot::compare_records(gpu, trn2, {}), "output-difference").outcome == Outcome::fail);

  CHECK(pilot::compare_records(gpu, trn2, {}).costs.empty());  // no prices
  gpu["price_per_hour"] = 32.77;
  const auto costed = pilot::compare_records(gpu, trn2, {}, std::nullopt, 20.0);
  REQUIRE(costed.costs.size() == 3);
  CHECK(costed.costs[0] == "gpu: $0.065540 per effective step");  // 32.77 * 2 h / 1000
  CHECK(costed.costs[1] == "trn2: $0.040000 per effective step");
  CHECK(costed.costs[2] == "trn2 / gpu: 0.610");
  CHECK_FALSE(costed.passed());
}
