// `tr2audit plan` and `tr2audit compare` as a user runs them: the pilot request of an example repo
// (YAML that the bounded loader reads back, Markdown), the record template, and the comparison of
// two run records with its exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "tr2audit/rules/yaml_load.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::TempDir;
using Json = nlohmann::json;

namespace {

const std::string k_root = TR2AUDIT_SOURCE_DIR;

std::string record(const std::string& platform, double loss_at_20, const std::string& extra = "") {
  return R"({"schema": "tr2audit-run-record/1", "platform": ")" + platform +
         R"(", "effective_steps": 100, "wall_time_s": 3600, "loss_curve": [{"step": 10, "loss": 2.0}, {"step": 20, "loss": )" +
         std::to_string(loss_at_20) + R"(}], "eval": {"accuracy": 0.8})" + extra + "}";
}

}  // namespace

TEST_CASE("cli::plan writes the pilot request of an example as YAML that reads back", "[cli][pilot]") {
  const auto result = run_tr2audit("plan '" + k_root + "/examples/llama-lora-fixed-shapes'");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto doc = tr2audit::rules::load_yaml_document(result.out);
  REQUIRE(doc.ok);
  const auto request = doc.root["pilot_request"];
  CHECK(request["version"].as<std::string>() == "1");
  CHECK(request["fields"]["method"]["status"].as<std::string>() == "found");
  CHECK(request["fields"]["method"]["values"][0]["value"].as<std::string>() == "lora");
  CHECK(request["fields"]["input_length"]["status"].as<std::string>() == "found");
  CHECK(request["platform_checks"].size() == 5);
  CHECK(request["tolerances"]["loss_relative"].as<double>() == Approx(0.05));

  const auto same = run_tr2audit("scan --format plan '" + k_root + "/examples/llama-lora-fixed-shapes'");
  CHECK(same.exit_code == 0);
  CHECK(same.out == result.out);
}

TEST_CASE("cli::plan --format markdown and usage errors", "[cli][pilot]") {
  const auto md = run_tr2audit("plan --format markdown '" + k_root + "/examples/llama-lora-fixed-shapes'");
  REQUIRE(md.exit_code == 0);
  CHECK_THAT(md.out, Catch::StartsWith("# Trainium2 pilot request") && Catch::Contains("## Compile burden") &&
                         Catch::Contains("| method | method = lora |"));
  CHECK(run_tr2audit("plan --format toml '" + k_root + "/examples/llama-lora-fixed-shapes'").exit_code == 2);
  CHECK(run_tr2audit("plan").exit_code == 2);
  CHECK(run_tr2audit("plan /no/such/dir").exit_code == 2);
}

TEST_CASE("cli::plan --record-template writes the schema and the CSV header", "[cli][pilot]") {
  TempDir dir;
  const auto result = run_tr2audit("plan --record-template '" + (dir.path() / "records").string() + "'");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const Json schema = Json::parse(tr2audit::testing::slurp(dir.path() / "records" / "run-record.schema.json"));
  CHECK(schema["properties"]["schema"]["const"] == "tr2audit-run-record/1");
  CHECK_THAT(tr2audit::testing::slurp(dir.path() / "records" / "run-record.csv"),
             Catch::StartsWith("schema,platform,"));
}

TEST_CASE("cli::compare prints pass/fail per check and exits 0, 1 or 2", "[cli][pilot]") {
  TempDir dir;
  const auto gpu = dir.write("gpu.json", record("gpu", 1.5, R"(, "price_per_hour": 32.0)"));
  const auto recovered =
      R"(, "price_per_hour": 16.0, "recoveries": [{"failed_at_step": 50, "resumed_from_step": 40, "loss_before": 1.6, "loss_after": 1.62}])";
  const auto good = dir.write("trn2.json", record("trn2", 1.52, recovered));
  const auto drift = dir.write("drift.json", record("trn2", 2.5, recovered));
  const auto passed = run_tr2audit("compare '" + gpu.string() + "' '" + good.string() + "'");
  INFO(passed.out << passed.err);
  CHECK(passed.exit_code == 0);
  CHECK_THAT(passed.out, Catch::Contains("pass  loss-parity") && Catch::Contains("pass  resume-continuity") &&
                             Catch::Contains("cost  trn2 / gpu: 0.500"));
  const auto failed = run_tr2audit("compare '" + gpu.string() + "' '" + drift.string() + "'");
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.out, Catch::Contains("fail  loss-parity"));
  CHECK(run_tr2audit("compare '" + gpu.string() + "' '" + drift.string() + "' --loss-tolerance 0.9").exit_code == 0);
  const auto bad = dir.write("bad.json", "{\"schema\": \"other\"}");
  CHECK(run_tr2audit("compare '" + gpu.string() + "' '" + bad.string() + "'").exit_code == 2);
  CHECK(run_tr2audit("compare '" + good.string() + "' '" + gpu.string() + "'").exit_code == 2);  // order
}
