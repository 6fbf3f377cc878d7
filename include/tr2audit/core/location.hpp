// core/location: where a fact or finding sits in a file. Lines and columns are 1-based; columns
// count Unicode code points. Notebook cells are carried separately so reports can map back.
#pragma once
#include <compare>
#include <cstdint>
#include <optional>

namespace tr2audit {

/// A span in one source file; end is inclusive of the last character's line, exclusive column.
struct Span {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;
  std::uint32_t start_byte = 0;  ///< byte offset into the (possibly notebook-concatenated) text
  std::uint32_t end_byte = 0;
  auto operator<=>(const Span&) const = default;
};

/// Where a span of a notebook's concatenated code lies: the 1-based cell and the line in that cell.
struct CellLocation {
  std::uint32_t cell = 0;
  std::uint32_t line = 0;
};

}  // namespace tr2audit
