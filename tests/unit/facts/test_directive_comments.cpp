// Suppression directives are facts: the extraction walk records the comments that hold `tr2audit:`
// (real comment nodes, never text in a string) and the line each one covers.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"

using tr2audit::testing::facts_of;

TEST_CASE("directive comments: real comments only, with the line each covers", "[facts][suppress]") {
  const auto facts = facts_of(R"(import torch
s = "# tr2audit: ignore[cuda-api.cuda-method] inside a string"
t = f"{'#'} tr2audit: ignore[cuda-api.cuda-method] in an f-string"
x = torch.ones(1).cuda()  # tr2audit: ignore[cuda-api.cuda-method] trailing
# tr2audit: ignore[cuda-api.cuda-method] own line
# another comment stacks
y = x.cuda()
  # tr2audit: ignore-file[cuda-api.*] indented, last line)");
  REQUIRE(facts.directives.size() == 3);
  const auto& trailing = facts.directives[0];
  CHECK(trailing.line == 4);
  CHECK(trailing.column == 27);
  CHECK_FALSE(trailing.own_line);
  CHECK(trailing.covers == 4);
  CHECK(trailing.text == " tr2audit: ignore[cuda-api.cuda-method] trailing");
  const auto& own = facts.directives[1];
  CHECK(own.own_line);
  CHECK(own.line == 5);
  CHECK(own.covers == 7);
  const auto& last = facts.directives[2];
  CHECK(last.own_line);
  CHECK(last.column == 3);
  CHECK(last.covers == 9);
}

TEST_CASE("directive comments: none in a file without the marker", "[facts][suppress]") {
  CHECK(facts_of("import torch  # a comment\n# another\nx = 1\n").directives.empty());
}
