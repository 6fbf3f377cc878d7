// Tests for rules/yaml_load: every input returns, quickly, with one document or a positioned error.
// Regression: a rule file whose whole content is ',' made YAML::LoadAll (yaml-cpp 0.7.0) loop
// forever, growing past 1 GB (jbeder/yaml-cpp#1040).
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "tr2audit/rules/rule_set.hpp"
#include "tr2audit/rules/yaml_load.hpp"

using tr2audit::rules::load_yaml_document;
using tr2audit::rules::YamlDocument;
using tr2audit::rules::YamlLimits;

namespace {

std::string repeat(const std::string& unit, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += unit;
  return out;
}

std::string alias_bomb(int levels) {
  std::string text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < levels; ++i) {
    const std::string prev = "*l" + std::to_string(i - 1);
    text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [" + repeat(prev + ", ", 9) + prev + "]\n";
  }
  return text;
}

}  // namespace

TEST_CASE("rules::load_yaml_document refuses a stray top-level ',' instead of looping", "[rules][yaml][hostile]") {
  for (const std::string text : {",", ",\n", "- a\n,\n", "{a: 1},", "[a],[b]", "a: 1\n---\nb: 2\n"}) {
    INFO(text);
    const auto start = std::chrono::steady_clock::now();
    const YamlDocument doc = load_yaml_document(text);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    CHECK_FALSE(doc.ok);
    CHECK_THAT(doc.error, Catch::Contains("exactly one YAML document"));
    CHECK(doc.line >= 1);
  }
}

TEST_CASE("rules::load_yaml_document accepts one document, empty files and explicit markers", "[rules][yaml]") {
  for (const std::string text : {"", "# only a comment\n", "a: 1\n", "---\na: 1\n", "a: 1\n...\n", "x,"}) {
    INFO(text);
    CHECK(load_yaml_document(text).ok);
  }
  CHECK(load_yaml_document("a: [1, 2]\n").root["a"].size() == 2);
}

TEST_CASE("rules::load_yaml_document bounds alias bombs, depth, size and node count", "[rules][yaml][hostile]") {
  const YamlDocument bomb = load_yaml_document(alias_bomb(9));  // 10^9 nodes once expanded
  CHECK_FALSE(bomb.ok);
  CHECK_THAT(bomb.error, Catch::Contains("alias bomb"));
  CHECK(load_yaml_document(alias_bomb(2)).ok);  // a few aliases are fine

  const YamlDocument deep = load_yaml_document("a: " + repeat("[", 10000) + repeat("]", 10000));
  CHECK_FALSE(deep.ok);
  CHECK_THAT(deep.error, Catch::Contains("nested more than"));
  std::string block;
  for (int i = 0; i < 10000; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
  CHECK_FALSE(load_yaml_document(block).ok);

  YamlLimits small;
  small.max_bytes = 16;
  const YamlDocument big = load_yaml_document("a: 12345678901234567890\n", small);
  CHECK_FALSE(big.ok);
  CHECK_THAT(big.error, Catch::Contains("over the 16-byte limit"));
  small = YamlLimits{};
  small.max_events = 100;
  const YamlDocument many = load_yaml_document("a: [" + repeat("1, ", 200) + "1]\n", small);
  CHECK_FALSE(many.ok);
  CHECK_THAT(many.error, Catch::Contains("more than 100 nodes"));
}

TEST_CASE("rules::load_rule_text names the file and position for a stray ','", "[rules][yaml][hostile]") {
  std::vector<tr2audit::Problem> problems;
  CHECK_FALSE(tr2audit::rules::load_rule_text(",", "rules/x/comma.yaml", problems));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == "rules/x/comma.yaml");
  CHECK(problems[0].kind == tr2audit::ProblemKind::invalid_rule);
  CHECK(problems[0].line == 1);
}
