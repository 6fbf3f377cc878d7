#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "rules_test_support.hpp"
#include "tr2audit/rules/rules_doc.hpp"

using namespace tr2audit;
using namespace tr2audit::rules;
using tr2audit::rules::testing::rule_yaml;
using tr2audit::rules::testing::TempDir;

TEST_CASE("rules::render_rules_markdown groups rules by category and is deterministic", "[rules]") {
  TempDir tmp;
  tmp.write("dynamic-graph/item-in-forward.yaml",
            rule_yaml("dynamic-graph.item-in-forward", "  method: [item]\n",
                      "severity_by_profile: {xla: blocker}\nexample: |\n  loss.item()\n"));
  tmp.write("cuda-api/sync-call.yaml",
            rule_yaml("cuda-api.sync-call", "  call: [torch.cuda.synchronize]\n", "profiles: [native]\n"));
  const LoadedRules loaded = load_rules({tmp.path()});
  REQUIRE(loaded.problems.empty());
  const std::string md = render_rules_markdown(loaded.rules);
  CHECK(md == render_rules_markdown(loaded.rules));
  const auto api = md.find("## cuda-api\n");
  const auto graph = md.find("## dynamic-graph\n");
  REQUIRE(api != std::string::npos);
  REQUIRE(graph != std::string::npos);
  CHECK(api < graph);                                      // report order of categories
  CHECK(md.find("## cuda-library") == std::string::npos);  // empty categories are left out
  CHECK(md.find("| [`cuda-api.sync-call`](#cuda-apisync-call) | A test rule | high | medium |") != std::string::npos);
  CHECK(md.find("| high (xla: blocker) | medium | native, xla | method |") != std::string::npos);
  CHECK(md.find("| high | medium | native | call |") != std::string::npos);
  CHECK(md.find("```python\nloss.item()\n```") != std::string::npos);
  CHECK(md.find("- https://awsdocs-neuron.readthedocs-hosted.com/") != std::string::npos);
  CHECK(md.back() == '\n');
  CHECK(md.substr(md.size() - 2) != "\n\n");
}

TEST_CASE("rules::render_rules_markdown matches the committed docs/rules.md", "[rules]") {
  const std::filesystem::path source = TR2AUDIT_SOURCE_DIR;
  const LoadedRules loaded = load_rules({source / "rules"});
  for (const Problem& p : loaded.problems) INFO(format_problem(p));
  REQUIRE(loaded.problems.empty());
  std::ifstream in(source / "docs" / "rules.md", std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream committed;
  committed << in.rdbuf();
  INFO("docs/rules.md is stale: run `tr2audit rules docs -o docs/rules.md`");
  CHECK(committed.str() == render_rules_markdown(loaded.rules));
}
