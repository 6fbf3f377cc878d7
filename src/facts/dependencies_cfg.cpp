// facts/dependencies_cfg: setup.cfg's [options] install_requires / setup_requires / tests_require and
// [options.extras_require] groups, read like setuptools does: an INI value continues on indented
// lines; a one-line value is split at ';' (setuptools' "list-semi"), a multi-line value per line.
#include <array>
#include <utility>

#include "facts/dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

struct Piece {
  std::string_view text;
  std::uint32_t line = 0;
};

constexpr std::array<std::string_view, 3> k_option_keys{"install_requires", "setup_requires", "tests_require"};
constexpr std::array<std::string_view, 11> k_marker_names{"python_version",
                                                          "python_full_version",
                                                          "os_name",
                                                          "sys_platform",
                                                          "platform_release",
                                                          "platform_system",
                                                          "platform_version",
                                                          "platform_machine",
                                                          "platform_python_implementation",
                                                          "implementation_name",
                                                          "extra"};

/// The section a key of a setup.cfg section declares dependencies under; empty when it declares none.
std::string section_for(std::string_view ini_section, std::string_view key) {
  if (ini_section == "options") {
    for (std::string_view option : k_option_keys) {
      if (key == option) return std::string(key);
    }
    return {};
  }
  if (ini_section == "options.extras_require") return "extras_require." + std::string(key);
  return {};
}

bool starts_with_marker(std::string_view text) {
  text = trim(text);
  for (std::string_view marker : k_marker_names) {
    if (starts_with(text, marker)) return true;
  }
  return false;
}

/// Removes an inline " # comment" (a '#' without whitespace before it belongs to a URL fragment).
std::string_view strip_inline_comment(std::string_view text) {
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '#' && (text[i - 1] == ' ' || text[i - 1] == '\t')) return text.substr(0, i);
  }
  return text;
}

/// Splits a one-line value at ';'; a part that starts with a marker belongs to the part before it.
std::vector<Piece> split_semicolons(Piece value) {
  std::vector<Piece> items;
  std::vector<std::size_t> starts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= value.text.size(); ++i) {
    if (i < value.text.size() && value.text[i] != ';') continue;
    const std::string_view part = value.text.substr(start, i - start);
    if (!items.empty() && starts_with_marker(part)) {
      items.back().text = value.text.substr(starts.back(), i - starts.back());
    } else {
      items.push_back(Piece{part, value.line});
      starts.push_back(start);
    }
    start = i + 1;
  }
  return items;
}

/// Turns the collected pieces of one value into facts; one_line: the value was only on the key's line.
void emit(const std::vector<Piece>& pieces, bool one_line, const std::string& section,
          std::vector<DependencyFact>& out) {
  std::vector<Piece> items;
  if (one_line && pieces.size() == 1) {
    items = split_semicolons(pieces.front());
  } else {
    items = pieces;
  }
  for (const Piece& item : items) {
    const std::string_view text = trim(item.text);
    if (text.empty() || starts_with(text, "file:") || starts_with(text, "attr:")) continue;
    if (auto fact = make_dependency(text, section, item.line)) out.push_back(std::move(*fact));
  }
}

}  // namespace

std::vector<DependencyFact> read_setup_cfg(std::string_view text) {
  std::vector<DependencyFact> out;
  std::string ini_section;
  std::string value_section;  // non-empty while reading a dependency value
  std::vector<Piece> pieces;
  std::uint32_t key_line = 0;
  const auto flush = [&] {
    const bool one_line = !pieces.empty() && pieces.back().line == key_line;
    if (!value_section.empty()) emit(pieces, one_line, value_section, out);
    value_section.clear();
    pieces.clear();
  };
  std::uint32_t line_number = 0;
  for (std::string_view line : split(text, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view trimmed = trim(line);
    if (trimmed.empty() || trimmed.front() == '#' || trimmed.front() == ';') continue;
    const bool continuation = line.front() == ' ' || line.front() == '\t';
    if (continuation) {
      if (!value_section.empty()) pieces.push_back(Piece{strip_inline_comment(trimmed), line_number});
      continue;
    }
    flush();
    if (trimmed.front() == '[' && trimmed.back() == ']') {
      ini_section = std::string(trim(trimmed.substr(1, trimmed.size() - 2)));
      continue;
    }
    const std::size_t delimiter = trimmed.find_first_of("=:");
    if (delimiter == std::string_view::npos) continue;
    key_line = line_number;
    value_section = section_for(ini_section, to_lower(trim(trimmed.substr(0, delimiter))));
    const std::string_view value = trim(strip_inline_comment(trimmed.substr(delimiter + 1)));
    if (!value.empty() && !value_section.empty()) pieces.push_back(Piece{value, line_number});
  }
  flush();
  return out;
}

}  // namespace tr2audit::facts
