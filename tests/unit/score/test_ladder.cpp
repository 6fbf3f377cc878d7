// The readiness ladder: five fixture repos in tests/ladder, from a clean LoRA script to a kernel-heavy
// research repo, scanned in-process with the shipped rules and policy. Readiness must strictly
// decrease along the ladder (no two rungs share a score), and the ends must get their verdicts.
// Also: a single-file scan judges that file as its own training path.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/score/policy.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

report::Report scan_path(const fs::path& root) {
  static const rules::LoadedRules loaded = rules::load_rules({k_repo / "rules"});
  static const rules::LoadedOpTable table = rules::OpTable::load(k_repo / "rules" / "neuron-ops.yaml");
  static const score::LoadedPolicy policy = score::load_policy(k_repo / "rules" / "scoring.yaml");
  REQUIRE(loaded.problems.empty());
  REQUIRE(table.table);
  REQUIRE(policy.policy);
  pipeline::ScanOptions options;
  options.root = root;
  options.jobs = 2;
  return pipeline::scan(options, pipeline::Knowledge{loaded.rules, &*table.table, &*policy.policy});
}

}  // namespace

TEST_CASE("readiness strictly decreases along the ladder of fixture repos", "[score][ladder]") {
  const std::vector<std::string> rungs{"1-clean-lora", "2-cuda-apis", "3-optional-kernel", "4-hot-path-kernel",
                                       "5-kernel-heavy"};
  std::vector<report::Report> reports;
  for (const auto& rung : rungs) {
    reports.push_back(scan_path(k_repo / "tests" / "ladder" / rung));
    REQUIRE(reports.back().recommendation);
    UNSCOPED_INFO(rung << ": " << score::to_string(reports.back().recommendation->verdict) << " "
                       << reports.back().recommendation->readiness);
  }
  for (std::size_t i = 1; i < reports.size(); ++i) {
    INFO(rungs[i - 1] << " vs " << rungs[i]);
    CHECK(reports[i - 1].recommendation->readiness > reports[i].recommendation->readiness);
  }
  CHECK(reports.front().recommendation->verdict == score::Verdict::trainium2_pilot);
  CHECK(reports[1].recommendation->verdict != score::Verdict::gpu_keep);  // CUDA APIs alone never keep the GPU
  CHECK(reports[2].recommendation->verdict != score::Verdict::gpu_keep);  // an optional kernel has a fallback
  CHECK(reports[3].recommendation->verdict != score::Verdict::trainium2_pilot);
  CHECK(reports.back().recommendation->verdict == score::Verdict::gpu_keep);
  // The kernel-heavy rung still tells its work apart from "nothing portable at all".
  CHECK(reports.back().recommendation->readiness < reports[3].recommendation->readiness);
}

TEST_CASE("a single-file scan judges the file as its own training path", "[score][ladder]") {
  const report::Report one = scan_path(k_repo / "tests" / "ladder" / "5-kernel-heavy" / "model.py");
  REQUIRE(one.recommendation);
  INFO(score::to_string(one.recommendation->verdict) << " " << one.recommendation->readiness);
  CHECK(one.recommendation->verdict == score::Verdict::gpu_keep);
  CHECK(one.recommendation->readiness < 35);
  // Its findings count as reached: the file is the run.
  for (const auto& finding : one.findings) CHECK(finding.training_reached);
}

TEST_CASE("drivers rank what decides the verdict first", "[score][ladder]") {
  const report::Report heavy = scan_path(k_repo / "tests" / "ladder" / "5-kernel-heavy");
  REQUIRE(heavy.recommendation);
  const auto& drivers = heavy.recommendation->drivers;
  REQUIRE(!drivers.empty());
  CHECK(drivers.size() <= 10);
  CHECK(drivers.front().decides);
  CHECK(drivers.front().severity == Severity::blocker);
  for (std::size_t i = 1; i < drivers.size(); ++i) CHECK((drivers[i - 1].decides || !drivers[i].decides));
  for (const auto& d : drivers) {
    CHECK(d.finding_ids.size() == d.locations.size());
    CHECK(!d.code.empty());
  }
}

TEST_CASE("a blocker only some training scripts reach makes the repo dual-run, naming the portable run",
          "[score][ladder]") {
  // lmtrain/train_mem.py monkey-patches flash-attn into the model's forward and then runs train.py's
  // `train()`; train.py on its own trains the same model with SDPA.
  const report::Report report = scan_path(k_repo / "tests" / "ladder" / "confined-blocker");
  REQUIRE(report.recommendation);
  CHECK(report.recommendation->verdict == score::Verdict::dual_run);
  REQUIRE_FALSE(report.recommendation->reasons.empty());
  CHECK(report.recommendation->reasons.front().text.find("`lmtrain/train.py` (readiness 100") != std::string::npos);
  bool patched_forward = false;
  for (const auto& f : report.findings) {
    patched_forward |= f.rule_id == "cuda-library.flash-attn-call" && f.region == facts::Region::forward;
  }
  CHECK(patched_forward);  // the patched-in forward runs as the model's forward
  std::size_t blocked = 0;
  for (const auto& entry : report.entry_verdicts) blocked += entry.verdict == score::Verdict::gpu_keep ? 1 : 0;
  CHECK(blocked == 1);
}
