#include <catch2/catch.hpp>
#include <string>

#include "support/extract_helpers.hpp"
#include "tr2audit/parse/parse.hpp"
#include "tr2audit/parse/walk.hpp"

using namespace tr2audit;

TEST_CASE("parse::walk visits enter and leave in document order", "[parse]") {
  parse::Parser parser;
  const std::string code = "f(a)\n";
  auto outcome = parser.parse(code, std::chrono::milliseconds(0));
  REQUIRE(outcome.tree);
  std::string events;
  parse::walk(ts_tree_root_node(outcome.tree.get()), [&](const parse::WalkStep& step) {
    if (ts_node_is_named(step.node))
      events += std::string(step.event == parse::WalkEvent::enter ? "+" : "-") + ts_node_type(step.node) + " ";
    return true;
  });
  CHECK(events ==
        "+module +expression_statement +call +identifier -identifier +argument_list +identifier -identifier "
        "-argument_list -call -expression_statement -module ");
}

TEST_CASE("parse::walk and the extractor survive 100000 levels of nesting", "[parse]") {
  constexpr int k_depth = 100000;
  std::string code = "import torch\nx = ";
  for (int i = 0; i < k_depth; ++i) code += '(';
  code += "torch.cuda.synchronize()";
  for (int i = 0; i < k_depth; ++i) code += ')';
  code += "\n";
  const auto f = testing::facts_of(code);
  REQUIRE(f.calls.size() == 1);
  CHECK(f.calls[0].callee.dotted() == "torch.cuda.synchronize");
  std::string chain = "y = a";
  for (int i = 0; i < 50000; ++i) chain += " + a";
  const auto g = testing::facts_of(chain + "\n");
  CHECK(g.lines == 1);
}

TEST_CASE("parse::Parser gives up when the time budget runs out", "[parse]") {
  parse::Parser parser;
  std::string code;
  for (int i = 0; i < 200000; ++i) code += "x = f(a, b, c) + g(d)[e]\n";
  auto outcome = parser.parse(code, std::chrono::milliseconds(1));
  CHECK_FALSE(outcome.tree);
  CHECK(outcome.timed_out);
  auto again = parser.parse("x = 1\n", std::chrono::milliseconds(1000));
  CHECK(again.tree);
}
