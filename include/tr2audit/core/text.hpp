// core/text: small string helpers shared by every stage (no locale, UTF-8 aware where it matters).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tr2audit {

/// True when bytes are well-formed UTF-8 (no overlongs, no surrogates); reports the first bad offset.
bool is_valid_utf8(std::string_view bytes, std::size_t* first_bad_offset = nullptr);
/// Number of code points in bytes (assumes valid UTF-8).
std::uint32_t count_code_points(std::string_view bytes);
std::string_view trim(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char separator);
bool starts_with(std::string_view text, std::string_view prefix);
bool ends_with(std::string_view text, std::string_view suffix);
/// Letters, digits and underscores only, and not empty: a plain Python name (ASCII).
bool is_identifier(std::string_view text);
/// Starts with an ASCII capital letter: named like a class (`UpSampleLayer`).
bool starts_upper(std::string_view text);
/// `args.xformers`, `apex.optimizers.FusedAdam`, `xformers`: one or more names joined by dots, none starting with a
/// digit; nothing computed.
bool is_name_chain(std::string_view text);
/// `name` occurs in `text` as a name of its own: not an attribute of something (`x.name`), not part of a longer
/// name (`name_2`).
bool mentions_name(std::string_view text, std::string_view name);
/// `RLType.EBFT`, `enums.AttnImpl.FLASH`: a dotted name whose next-to-last segment is CapWords (a class),
/// read as an enum member; not `torch.float16`, `self.MODE` or a call.
bool names_enum_member(std::string_view text);
/// `(a if c else b)` -> `a if c else b`: outer parentheses and the spaces inside them removed, repeatedly.
std::string_view unwrap_parens(std::string_view text);
std::string to_lower(std::string_view text);
/// Damerau-free Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);
/// The candidate closest to word when it is close enough to be a plausible typo, else empty.
std::string suggest(std::string_view word, const std::vector<std::string>& candidates);
/// The 1-based line at a byte offset's line, without the trailing newline.
std::string_view line_at(std::string_view text, std::uint32_t line);

/// Calls visit(line, number) for each line of text: 1-based, without the '\n' or a trailing '\r'.
template <class Visit>
void for_each_line(std::string_view text, Visit&& visit) {
  std::uint32_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    visit(line, ++number);
  }
}

}  // namespace tr2audit
