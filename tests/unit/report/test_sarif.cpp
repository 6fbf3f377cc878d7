#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/renderers.hpp"
#include "sample_report.hpp"
#include "tool_check.hpp"

using namespace tr2audit;
using namespace tr2audit::report;
using Json = nlohmann::json;

namespace {
Json render(const Report& report) {
  return Json::parse(testing::render_to_string(render_sarif, report));
}
}  // namespace

TEST_CASE("report::render_sarif describes the tool, the rules and the run", "[report]") {
  const Json doc = render(testing::sample_report());
  CHECK(doc["version"] == "2.1.0");
  REQUIRE(doc["runs"].size() == 1);
  const Json& run = doc["runs"][0];
  const Json& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "tr2audit");
  CHECK(driver["semanticVersion"] == "<version>");
  CHECK(driver["informationUri"] == "https://github.com/tr2audit/tr2audit");
  CHECK(run["columnKind"] == "unicodeCodePoints");
  CHECK(run["automationDetails"]["id"] == "tr2audit/native/");
  CHECK(run["originalUriBaseIds"].contains("%SRCROOT%"));
  REQUIRE(driver["rules"].size() == 3);
  const Json& rule = driver["rules"][0];
  CHECK(rule["id"] == "cuda-api.cuda-device-literal");
  CHECK(rule["name"] == "CudaDeviceLiteral");
  CHECK(rule["helpUri"] == "https://github.com/tr2audit/tr2audit/blob/main/docs/rules.md#cuda-apicuda-device-literal");
  CHECK(rule["defaultConfiguration"]["level"] == "error");
  CHECK(rule["properties"]["precision"] == "high");
  CHECK(rule["help"]["markdown"].get<std::string>().find("**Fix.**") != std::string::npos);
  CHECK(driver["rules"][2]["defaultConfiguration"]["level"] == "warning");
}

TEST_CASE("report::render_sarif results: valid rule indices, levels, relative URIs, fingerprints, suppressions",
          "[report]") {
  const Json doc = render(testing::sample_report());
  const Json& run = doc["runs"][0];
  const Json& results = run["results"];
  REQUIRE(results.size() == 4);
  for (const Json& result : results) {
    const std::size_t index = result["ruleIndex"];
    REQUIRE(index < run["tool"]["driver"]["rules"].size());
    CHECK(run["tool"]["driver"]["rules"][index]["id"] == result["ruleId"]);
    const Json& artifact = result["locations"][0]["physicalLocation"]["artifactLocation"];
    CHECK(artifact["uriBaseId"] == "%SRCROOT%");
    CHECK(artifact["uri"].get<std::string>().front() != '/');
    CHECK(result["partialFingerprints"]["tr2auditFingerprint/v1"] == "0123456789abcdef");
  }
  CHECK(results[0]["level"] == "error");    // high
  CHECK(results[1]["level"] == "error");    // blocker
  CHECK(results[2]["level"] == "warning");  // medium
  CHECK(results[3]["level"] == "note");     // low
  CHECK(results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20dir/ops%20%C3%A9.py");
  const Json& region = results[0]["locations"][0]["physicalLocation"]["region"];
  CHECK(region == Json{{"startLine", 12}, {"startColumn", 19}, {"endLine", 12}, {"endColumn", 25}});
  CHECK(results[3]["suppressions"][0]["kind"] == "inSource");
  CHECK(results[3]["suppressions"][0]["status"] == "accepted");
  CHECK(results[3]["suppressions"][0]["justification"] == "CPU fallback path, kept on purpose (until 2027-01-31)");
  CHECK(results[0]["suppressions"] == Json::array());  // known not suppressed (absent would mean "unknown")
  CHECK_FALSE(results[0].contains("baselineState"));   // no baseline, no state
  CHECK(run["invocations"][0]["toolExecutionNotifications"][0]["descriptor"]["id"] == "syntax-errors");
}

TEST_CASE("report::render_sarif states each result's baselineState and gate state under a gate", "[report]") {
  const Json log = render(testing::gated_sample_report());
  const Json& run = log["runs"][0];
  const Json& results = run["results"];
  REQUIRE(results.size() == 4);  // every finding, not only the gated ones
  CHECK(results[0]["baselineState"] == "unchanged");
  CHECK(results[1]["baselineState"] == "new");
  CHECK(results[1]["properties"]["gateState"] == "gated");
  CHECK(results[1]["properties"]["inDiff"] == true);
  CHECK(results[0]["properties"]["gateState"] == "baseline");
  CHECK(results[0]["properties"]["gateReason"] == "recorded in the baseline .tr2audit-baseline.json");
  CHECK(results[3]["properties"]["gateState"] == "suppressed");
  CHECK(results[3].contains("baselineState"));  // SARIF: present on every result once present on one
  CHECK(run["properties"]["gate"]["status"] == "failed");
  CHECK(run["properties"]["gate"]["baseline"]["fixed"] == 1);
}

TEST_CASE("report::render_sarif gives a finding whose rule is not in the report a rule entry", "[report]") {
  Report report = testing::sample_report();
  report.rules.clear();
  const Json doc = render(report);
  const Json& rules = doc["runs"][0]["tool"]["driver"]["rules"];
  CHECK(rules.size() == 3);
  for (const Json& result : doc["runs"][0]["results"])
    CHECK(rules[result["ruleIndex"].get<std::size_t>()]["id"] == result["ruleId"]);
}

TEST_CASE("report::render_sarif passes Microsoft's SARIF Multitool and the official 2.1.0 schema", "[report][tools]") {
  const auto dir = testing::temp_dir("sarif");
  Report empty = testing::sample_report();
  empty.findings.clear();
  empty.rules.clear();
  empty.problems.clear();
  empty.scan.root = "/abs/path with space";
  testing::write_file(dir / "sample.sarif", testing::render_to_string(render_sarif, testing::sample_report()));
  testing::write_file(dir / "empty.sarif", testing::render_to_string(render_sarif, empty));
  testing::write_file(dir / "gated.sarif", testing::render_to_string(render_sarif, testing::gated_sample_report()));
  const auto run = testing::run_tool_script(
      "validate_sarif.sh",
      {(dir / "sample.sarif").string(), (dir / "empty.sarif").string(), (dir / "gated.sarif").string()});
  if (run.skipped()) {
    WARN("SKIPPED: the SARIF Multitool is not installed (./.ci/bootstrap installs it): " << run.output);
    return;
  }
  INFO(run.output);
  CHECK(run.ok());
  // The validator must be able to fail: a result pointing past the rules array is an error.
  Json broken = render(testing::sample_report());
  broken["runs"][0]["results"][0]["ruleIndex"] = 99;
  testing::write_file(dir / "broken.sarif", broken.dump(2));
  const auto bad = testing::run_tool_script("validate_sarif.sh", {(dir / "broken.sarif").string()});
  INFO(bad.output);
  CHECK(bad.status == 1);
  std::filesystem::remove_all(dir);
}
