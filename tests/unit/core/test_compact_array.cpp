#include <catch2/catch.hpp>
#include <span>
#include <string>
#include <vector>

#include "tr2audit/core/compact_array.hpp"

using tr2audit::CompactArray;

TEST_CASE("CompactArray: one pointer, empty without an allocation, value semantics", "[core]") {
  STATIC_REQUIRE(sizeof(CompactArray<std::string>) == sizeof(void*));
  CompactArray<std::string> empty;
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  CHECK(empty.begin() == empty.end());
  CHECK(empty == CompactArray<std::string>{});
  CHECK(CompactArray<std::string>(std::vector<std::string>{}).empty());

  // Strings longer than the small-string buffer: a shallow copy or a double free would show under ASan.
  CompactArray<std::string> a =
      std::vector<std::string>{"padding=longest-and-then-some", "max_length=2048-tokens-long"};
  REQUIRE(a.size() == 2);
  CHECK(a[0] == "padding=longest-and-then-some");
  CHECK(a.front() == a[0]);
  CHECK(a.back() == "max_length=2048-tokens-long");

  CompactArray<std::string> copy = a;
  copy[0] += "-changed";
  CHECK(a[0] == "padding=longest-and-then-some");
  CHECK_FALSE(copy == a);
  copy = a;
  CHECK(copy == a);

  CompactArray<std::string> moved = std::move(copy);
  CHECK(moved == a);
  CHECK(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from array is empty

  moved = {"device=cuda-device-string-long-enough"};
  REQUIRE(moved.size() == 1);
  CHECK(moved[0] == "device=cuda-device-string-long-enough");
  const CompactArray<std::string>& same = moved;
  moved = same;  // self-assignment keeps the items
  CHECK(moved.size() == 1);
  moved.clear();
  CHECK(moved.empty());

  const std::span<const std::string> view = a;
  CHECK(view.size() == 2);
  CHECK(view[1] == "max_length=2048-tokens-long");
  std::vector<std::string> seen(a.begin(), a.end());
  CHECK(seen == std::vector<std::string>{"padding=longest-and-then-some", "max_length=2048-tokens-long"});
}
