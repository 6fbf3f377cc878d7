#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sample_report.hpp"
#include "tool_check.hpp"

using namespace tr2audit;
using namespace tr2audit::report;
using Json = nlohmann::ordered_json;

namespace {
Json render(const Report& report) {
  return Json::parse(testing::render_to_string(render_json, report));
}
}  // namespace

TEST_CASE("report::render_json writes the contract's top-level keys in a fixed order", "[report]") {
  const Json doc = render(testing::sample_report());
  std::vector<std::string> keys;
  for (const auto& item : doc.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"schema_version", "tool", "target", "scan", "recommendation", "projects",
                                         "entry_points", "summary", "setup", "findings", "problems", "rules"});
  CHECK(doc["tool"]["op_table"] == Json{{"version", "2026.11"}, {"neuron_sdk", "2.27"}, {"checked", "2026-11-20"}});
}

TEST_CASE("report::render_json writes the recommendation and per-project verdicts", "[report]") {
  const Json doc = render(testing::sample_report());
  const Json& rec = doc["recommendation"];
  CHECK(rec["verdict"] == "dual-run");
  CHECK(rec["readiness"] == 62);
  CHECK(rec["confidence"] == "medium");
  CHECK(rec["reasons"][0] == Json{{"text", "A CUDA extension is built at runtime."}, {"finding_ids", {"F0002"}}});
  CHECK(rec["flip"].size() == 1);
  CHECK(rec["plan"][0]["locations"][0] == "my dir/ops é.py:3");
  CHECK(rec["plan"][0]["probes"].size() == 1);
  CHECK(rec["categories"][0] == Json{{"category", "cuda-extension"},
                                     {"score", 20},
                                     {"findings", 1},
                                     {"effort", "high"},
                                     {"engineer_days", "5-15"}});
  CHECK_FALSE(rec.contains("project"));
  REQUIRE(doc["projects"].size() == 1);
  CHECK(doc["projects"][0].begin().key() == "project");
  CHECK(doc["projects"][0]["project"] == "services/trainer");
  CHECK(doc["projects"][0]["verdict"] == "trainium2-pilot");
}

TEST_CASE("report::render_json writes operators, setup and a null recommendation when not scored", "[report]") {
  Report report = testing::sample_report();
  report.recommendation.reset();
  const Json doc = render(report);
  CHECK(doc["recommendation"].is_null());
  const Json& ops = doc["summary"]["operators"];
  CHECK(ops["distinct"] == 3);
  CHECK(ops["unsupported"] == 1);
  CHECK(ops["ops"][0]["name"] == "torch.nonzero");
  CHECK(ops["ops"][0]["calls"] == 3);
  CHECK(ops["ops"][1]["inferred"] == true);
  CHECK(doc["setup"]["fine_tuning"][0] == Json{{"value", "lora"}, {"evidence", {"train.py:5", "train.py:60"}}});
  CHECK(doc["setup"]["parallelism"] == Json::array());
  CHECK(doc["findings"][2]["location"]["cell"] == 4);
  CHECK(doc["findings"][3]["suppressed"]["until"] == "2027-01-31");
}

TEST_CASE("report::render_json writes the gate's keys from the report model", "[report]") {
  const Json plain = render(testing::sample_report());
  CHECK_FALSE(plain.contains("gate"));
  CHECK_FALSE(plain["findings"][0].contains("gate"));
  const Json doc = render(testing::gated_sample_report());
  CHECK(doc["findings"][1]["baseline"] == "new");
  CHECK(doc["findings"][1]["in_diff"] == true);
  CHECK(doc["findings"][1]["gate"] == Json{{"state", "gated"}, {"why", "new since the baseline, on a changed line"}});
  CHECK(doc["findings"][0]["gate"]["state"] == "baseline");
  CHECK(doc["findings"][3]["baseline"] == nullptr);  // suppressed: neither new nor unchanged debt
  CHECK(doc["findings"][3]["gate"]["state"] == "suppressed");
  CHECK(doc["baseline"]["new"] == 1);
  CHECK(doc["baseline"]["fixed"][0]["path"] == "old.py");
  CHECK(doc["diff"]["readiness"]["base"] == 81);
  CHECK(doc["diff"]["added"]["blocker"] == 1);
  CHECK(doc["gate"] ==
        Json{{"status", "failed"},
             {"gated_findings", 1},
             {"reasons", {"1 finding at or above blocker (--fail-on blocker), first: my dir/ops é.py:3"}}});
}

TEST_CASE("report::render_json output validates against docs/report.schema.json (ajv)", "[report][tools]") {
  const auto dir = testing::temp_dir("json-schema");
  Report unscored = testing::sample_report();
  unscored.recommendation.reset();
  unscored.projects.clear();
  unscored.scan.git = GitInfo{"0123abc", "main"};
  testing::write_file(dir / "full.json", testing::render_to_string(render_json, testing::sample_report()));
  testing::write_file(dir / "unscored.json", testing::render_to_string(render_json, unscored));
  testing::write_file(dir / "gated.json", testing::render_to_string(render_json, testing::gated_sample_report()));
  Json broken = render(testing::sample_report());
  broken["findings"][0]["severity"] = "critical";  // not in the vocabulary: the schema must reject it
  testing::write_file(dir / "broken.json", broken.dump(2));
  const std::string schema = std::string(TR2AUDIT_SOURCE_DIR) + "/docs/report.schema.json";
  const auto good = testing::run_tool_script(
      "validate_json.sh",
      {schema, (dir / "full.json").string(), (dir / "unscored.json").string(), (dir / "gated.json").string()});
  if (good.skipped()) {
    WARN("SKIPPED: ajv is not installed (./.ci/bootstrap installs it): " << good.output);
    return;
  }
  INFO(good.output);
  CHECK(good.ok());
  const auto bad = testing::run_tool_script("validate_json.sh", {schema, (dir / "broken.json").string()});
  INFO(bad.output);
  CHECK(bad.status == 1);
  std::filesystem::remove_all(dir);
}
