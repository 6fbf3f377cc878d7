#include <catch2/catch.hpp>

#include "tr2audit/gate/baseline.hpp"

using namespace tr2audit;
using namespace tr2audit::gate;

namespace {

rules::Finding finding(const std::string& fingerprint, const std::string& path, std::uint32_t line) {
  rules::Finding f;
  f.rule_id = "cuda-api.cuda-method";
  f.fingerprint = fingerprint;
  f.path = path;
  f.at.line = line;
  f.message = "moves data to a CUDA device";
  return f;
}

}  // namespace

TEST_CASE("gate::Baseline round-trips through JSON deterministically", "[gate]") {
  report::Report r;
  r.run.tool_version = "0.1.0";
  r.findings = {finding("bbbb", "train.py", 9), finding("aaaa", "model.py", 3), finding("cccc", "train.py", 2)};
  r.findings[2].suppressed = rules::Suppression{"reason", ""};
  const Baseline b = make_baseline(r);
  REQUIRE(b.entries.size() == 2);  // suppressed findings are not debt
  CHECK(b.entries[0].path == "model.py");
  const std::string json = baseline_to_json(b);
  std::string error;
  const auto back = parse_baseline(json, error);
  REQUIRE(back);
  CHECK(baseline_to_json(*back) == json);
  CHECK(back->target == "native");
  CHECK(json.find("\"schema_version\": 1") != std::string::npos);
}

TEST_CASE("gate::compare_with_baseline splits new, unchanged and fixed with multiplicity", "[gate]") {
  report::Report old_report;
  old_report.findings = {finding("aaaa", "a.py", 1), finding("aaaa", "a.py", 5), finding("gone", "b.py", 2)};
  const Baseline b = make_baseline(old_report);
  report::Report now;
  now.findings = {finding("aaaa", "a.py", 2), finding("aaaa", "a.py", 6), finding("aaaa", "a.py", 9),
                  finding("fresh", "c.py", 1)};
  now.findings.push_back(finding("aaaa", "d.py", 3));
  now.findings.back().suppressed = rules::Suppression{"vendored", ""};
  const auto cmp = compare_with_baseline(now, b);
  CHECK(cmp.unchanged_count == 2);
  CHECK(cmp.new_count == 2);
  CHECK(now.findings[0].gate.baseline == BaselineState::unchanged);
  CHECK(now.findings[2].gate.baseline == BaselineState::new_finding);
  CHECK(now.findings[3].gate.baseline == BaselineState::new_finding);
  CHECK_FALSE(report::is_gated(now.findings[1]));
  CHECK(report::is_gated(now.findings[2]));
  // A suppressed finding counts neither way; its state says whether the baseline still holds its fingerprint.
  CHECK(now.findings[4].gate.baseline == BaselineState::new_finding);
  CHECK_FALSE(report::is_gated(now.findings[4]));
  REQUIRE(cmp.fixed.size() == 1);
  CHECK(cmp.fixed[0].fingerprint == "gone");
}

TEST_CASE("gate::parse_baseline rejects other files with a reason", "[gate]") {
  std::string error;
  CHECK_FALSE(parse_baseline("[]", error));
  CHECK_FALSE(parse_baseline(R"({"schema_version": 2, "findings": []})", error));
  CHECK(error.find("schema_version") != std::string::npos);
  CHECK_FALSE(parse_baseline(R"({"schema_version": 1, "findings": [{"rule_id": "x"}]})", error));
  CHECK(error.find("findings[0]") != std::string::npos);
}
