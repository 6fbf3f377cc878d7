#include <catch2/catch.hpp>

#include "tr2audit/core/location.hpp"

using tr2audit::Span;

TEST_CASE("Span: built in reading order, 20 bytes, columns clamped past 65535", "[core]") {
  STATIC_REQUIRE(sizeof(Span) == 20);
  const Span at(12, 5, 14, 9, 300, 420);
  CHECK(at.line == 12);
  CHECK(at.column == 5);
  CHECK(at.end_line == 14);
  CHECK(at.end_column == 9);
  CHECK(at.start_byte == 300);
  CHECK(at.end_byte == 420);

  // A call at column 70000 of a generated one-line table: the column saturates, the line and bytes stay exact.
  const Span wide(3, 70000, 3, 70010, 1000000, 1000010);
  CHECK(wide.column == Span::k_max_column);
  CHECK(wide.end_column == Span::k_max_column);
  CHECK(wide.start_byte == 1000000);

  // Ordered by line, then column, as reports sort findings.
  CHECK(Span(2, 9, 2, 10) < Span(3, 1, 3, 2));
  CHECK(Span(3, 1, 3, 2) < Span(3, 4, 3, 5));
  CHECK(Span(3, 1, 3, 2) == Span(3, 1, 3, 2));
}
