// core/location: where a fact or finding sits in a file. Lines and columns are 1-based; columns
// count Unicode code points. Notebook cells are carried separately so reports can map back.
#pragma once
#include <compare>
#include <cstdint>
#include <optional>
#include <tuple>

namespace tr2audit {

/// A span in one source file; end is inclusive of the last character's line, exclusive column.
/// Columns are 16-bit (every fact holds a span, hundreds of thousands of them): a column beyond
/// k_max_column, in a line longer than any written by hand, is reported as k_max_column.
struct Span {
  static constexpr std::uint32_t k_max_column = 0xffff;
  /// A column as a span holds it.
  static constexpr std::uint16_t column_of(std::uint32_t column) {
    return static_cast<std::uint16_t>(column < k_max_column ? column : k_max_column);
  }
  constexpr Span() = default;
  /// In reading order; the columns are clamped (column_of).
  constexpr Span(std::uint32_t line_, std::uint32_t column_, std::uint32_t end_line_, std::uint32_t end_column_,
                 std::uint32_t start_byte_ = 0, std::uint32_t end_byte_ = 0)
      : line(line_),
        end_line(end_line_),
        start_byte(start_byte_),
        end_byte(end_byte_),
        column(column_of(column_)),
        end_column(column_of(end_column_)) {}

  std::uint32_t line = 0;
  std::uint32_t end_line = 0;
  std::uint32_t start_byte = 0;  ///< byte offset into the (possibly notebook-concatenated) text
  std::uint32_t end_byte = 0;
  std::uint16_t column = 0;
  std::uint16_t end_column = 0;
  auto operator<=>(const Span& other) const {
    return std::tie(line, column, end_line, end_column, start_byte, end_byte) <=>
           std::tie(other.line, other.column, other.end_line, other.end_column, other.start_byte, other.end_byte);
  }
  bool operator==(const Span&) const = default;
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
