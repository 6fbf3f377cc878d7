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

/// A line and column (1-based, code points) in a file as it is stored: for a notebook, in its JSON.
struct FilePlace {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  auto operator<=>(const FilePlace&) const = default;
};

/// A character a notebook's JSON writes with more than one character (`\"`, `\t`, `\u00e9`): the line
/// and column of the Python text it is at, and how many characters more the JSON takes for it.
struct JsonEscape {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t extra = 0;
  auto operator<=>(const JsonEscape&) const = default;
};

/// Where a span of a notebook's concatenated code lies: the 1-based cell and the line in that cell.
struct CellLocation {
  std::uint32_t cell = 0;
  std::uint32_t line = 0;
};

}  // namespace tr2audit
