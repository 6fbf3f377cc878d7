// Tests of the strict scoring-policy loader (rules/scoring.yaml).
#include <fstream>
#include <sstream>

#include "score_test_support.hpp"

using namespace tr2audit;

namespace {

std::string shipped_text() {
  std::ifstream in(std::string(TR2AUDIT_SOURCE_DIR) + "/rules/scoring.yaml");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// The shipped text with the first occurrence of `from` replaced.
std::string edited(std::string_view from, std::string_view to) {
  std::string text = shipped_text();
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

std::uint32_t line_of(const std::string& text, std::string_view needle) {
  const auto at = text.find(needle);
  return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
}

}  // namespace

TEST_CASE("score::load_policy loads the shipped scoring.yaml", "[score]") {
  const auto& policy = testing::shipped_policy();
  CHECK(policy.region.at("test") == 0.0);
  CHECK(policy.region.at("evaluation") < policy.region.at("forward"));
  CHECK(policy.region.at("data-pipeline") < policy.region.at("training-step"));
  CHECK(policy.categories.size() == k_all_categories.size());
  CHECK(policy.hard_rules.size() >= 2);
  CHECK(policy.hard_rules[0].verdict == score::Verdict::gpu_keep);
  CHECK(!policy.plan.empty());
  CHECK(policy.dual_run_min_readiness < policy.pilot_min_readiness);
}

TEST_CASE("score::load_policy reports unknown keys with line, column and a suggestion", "[score]") {
  SECTION("top level") {
    const std::string text = edited("repeats:", "repeets:");
    const auto loaded = score::load_policy_text(text, "scoring.yaml");
    CHECK(!loaded.policy);
    REQUIRE(!loaded.problems.empty());
    const auto& p = loaded.problems[0];
    CHECK(p.kind == ProblemKind::invalid_config);
    CHECK(p.path == "scoring.yaml");
    CHECK(p.line == line_of(text, "repeets:"));
    CHECK(p.column == 1);
    CHECK_THAT(p.message, Catch::Contains("did you mean 'repeats'"));
  }
  SECTION("nested in a hard rule") {
    const std::string text = edited("min_distinct_rules: 2", "min_distinct_rule: 2");
    const auto loaded = score::load_policy_text(text, "scoring.yaml");
    REQUIRE(!loaded.problems.empty());
    CHECK(loaded.problems[0].line == line_of(text, "min_distinct_rule: 2"));
    CHECK(loaded.problems[0].column == 5);
    CHECK_THAT(loaded.problems[0].message, Catch::Contains("did you mean 'min_distinct_rules'"));
  }
  SECTION("a misspelt vocabulary word") {
    const std::string text = edited("verdict: gpu-keep", "verdict: gpu-kep");
    const auto loaded = score::load_policy_text(text, "scoring.yaml");
    REQUIRE(!loaded.problems.empty());
    CHECK(loaded.problems[0].line == line_of(text, "gpu-kep"));
    CHECK_THAT(loaded.problems[0].message, Catch::Contains("did you mean 'gpu-keep'"));
  }
}

TEST_CASE("score::load_policy rejects bad values and never throws", "[score]") {
  CHECK(!score::load_policy_text(edited("{pilot: 75, dual_run: 35}", "{pilot: 30, dual_run: 35}"), "s.yaml").policy);
  CHECK(!score::load_policy_text(edited("guarded: 0.2", "guarded: lots"), "s.yaml").policy);
  CHECK(!score::load_policy_text(edited("test: 0,", "tst: 0,"), "s.yaml").policy);
  const auto broken = score::load_policy_text("weights: {severity: [1, 2\n", "s.yaml");
  CHECK(!broken.policy);
  REQUIRE(broken.problems.size() == 1);
  CHECK(broken.problems[0].line >= 1);
  const auto missing = score::load_policy("/nonexistent/scoring.yaml");
  CHECK(!missing.policy);
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].kind == ProblemKind::invalid_config);
}
