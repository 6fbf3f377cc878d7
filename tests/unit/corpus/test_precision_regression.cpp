// The judged precision samples as a regression test. Each wrong or false finding the judges of
// tests/corpus/precision/round*/ named is reproduced by a small repo written for it under
// tests/corpus/precision/regression/<pattern>/ (never a scanned repo's code), and
// tests/corpus/precision/regression/cases.json says, per line, what the corrected finding is: its
// severity and region, or that the rule must not fire there at all. Every fixture repo is scanned
// in-process with the real rules, exactly as `tr2audit scan` would.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;

namespace {

const fs::path k_cases = fs::path(TR2AUDIT_SOURCE_DIR) / "tests" / "corpus" / "precision" / "regression";

report::Report scan_fixture(const pipeline::Knowledge& knowledge, const std::string& pattern) {
  pipeline::ScanOptions options;
  options.root = k_cases / pattern;
  options.jobs = 1;
  return pipeline::scan(options, knowledge);
}

const rules::Finding* find(const report::Report& report, const std::string& path, std::uint32_t line,
                           const std::string& rule) {
  for (const auto& f : report.findings) {
    if (f.path == path && f.at.line == line && f.rule_id == rule) return &f;
  }
  return nullptr;
}

std::string describe(const nlohmann::json& c) {
  return c.at("pattern").get<std::string>() + "/" + c.at("path").get<std::string>() + ":" +
         std::to_string(c.at("line").get<int>()) + " " + c.at("rule").get<std::string>() +
         " (judged: " + c.value("judged", std::string("-")) + ")";
}

}  // namespace

TEST_CASE("judged wrong findings stay corrected on fixtures that reproduce them", "[precision][corpus]") {
  std::ifstream in(k_cases / "cases.json");
  REQUIRE(in);
  const nlohmann::json cases = nlohmann::json::parse(in);
  REQUIRE(cases.is_array());
  REQUIRE(cases.size() >= 10);
  // The shipped rules, operator table and scoring policy, as `tr2audit scan` loads them.
  const fs::path rules_dir = fs::path(TR2AUDIT_SOURCE_DIR) / "rules";
  const rules::LoadedRules loaded = rules::load_rules({rules_dir});
  REQUIRE(loaded.problems.empty());
  const rules::LoadedOpTable table = rules::OpTable::load(rules_dir / "neuron-ops.yaml");
  REQUIRE(table.table);
  const score::LoadedPolicy policy = score::load_policy(rules_dir / "scoring.yaml");
  REQUIRE(policy.policy);
  const pipeline::Knowledge knowledge{loaded.rules, &*table.table, &*policy.policy};
  std::map<std::string, report::Report> reports;
  for (const auto& c : cases) {
    const std::string pattern = c.at("pattern").get<std::string>();
    if (!reports.count(pattern)) reports.emplace(pattern, scan_fixture(knowledge, pattern));
    const report::Report& report = reports.at(pattern);
    const rules::Finding* f = find(report, c.at("path").get<std::string>(), c.at("line").get<std::uint32_t>(),
                                   c.at("rule").get<std::string>());
    INFO(describe(c));
    if (c.value("absent", false)) {
      CHECK(f == nullptr);
      continue;
    }
    REQUIRE(f != nullptr);
    if (c.contains("severity")) CHECK(to_string(f->severity) == c.at("severity").get<std::string>());
    if (c.contains("region")) CHECK(f->region_name() == c.at("region").get<std::string>());
    if (c.contains("opt_in")) CHECK(f->opt_in == c.at("opt_in").get<std::string>());
    if (c.contains("off_training_path")) CHECK(f->off_training_path == c.at("off_training_path").get<bool>());
    if (c.contains("training_reached")) CHECK(f->training_reached == c.at("training_reached").get<bool>());
  }
}
