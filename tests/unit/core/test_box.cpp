#include <catch2/catch.hpp>
#include <string>

#include "tr2audit/core/box.hpp"

using tr2audit::Box;

TEST_CASE("Box: empty by default, value semantics on copy, equality by value", "[core]") {
  Box<std::string> empty;
  CHECK_FALSE(empty);
  CHECK(empty == Box<std::string>{});

  Box<std::string> a = std::string("nccl");
  REQUIRE(a);
  CHECK(*a == "nccl");
  CHECK_FALSE(a == empty);

  Box<std::string> copy = a;  // a deep copy: changing it leaves the original alone
  REQUIRE(copy);
  copy.emplace() += "-x";
  CHECK(*a == "nccl");
  CHECK(*copy == "nccl-x");
  CHECK_FALSE(copy == a);

  Box<std::string> other = std::string("nccl");
  CHECK(other == a);  // equal values in different boxes

  copy = empty;
  CHECK_FALSE(copy);
  Box<std::string> moved = std::move(a);
  CHECK(*moved == "nccl");
  moved.reset();
  CHECK_FALSE(moved);
  CHECK(empty.emplace().empty());  // emplace makes a default value
  CHECK(empty);
}
