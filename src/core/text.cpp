#include "tr2audit/core/text.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace tr2audit {

bool is_valid_utf8(std::string_view bytes, std::size_t* first_bad_offset) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  auto fail = [&](std::size_t at) {
    if (first_bad_offset) *first_bad_offset = at;
    return false;
  };
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return fail(i);
    }
    if (i + len > n) return fail(i);
    for (std::size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return fail(i);
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
      return fail(i);
    i += len;
  }
  return true;
}

std::uint32_t count_code_points(std::string_view bytes) {
  std::uint32_t count = 0;
  for (unsigned char c : bytes) count += (c & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const auto pos = text.find(separator, start);
    out.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool names_enum_member(std::string_view text) {
  const auto dot = text.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size() || starts_with(text, "self.")) return false;
  const auto before = text.rfind('.', dot - 1);
  const std::string_view klass = text.substr(before == std::string_view::npos ? 0 : before + 1);
  return std::isupper(static_cast<unsigned char>(klass.front())) != 0 &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.'; });
}

std::string_view unwrap_parens(std::string_view text) {
  text = trim(text);
  while (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = trim(text.substr(1, text.size() - 2));
  return text;
}

bool is_identifier(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

bool starts_upper(std::string_view text) {
  return !text.empty() && std::isupper(static_cast<unsigned char>(text.front())) != 0;
}

bool is_name_chain(std::string_view text) {
  for (std::size_t start = 0;;) {
    const auto dot = text.find('.', start);
    const std::string_view segment = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!is_identifier(segment) || std::isdigit(static_cast<unsigned char>(segment.front())) != 0) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool mentions_name(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  const auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool starts = at == 0 || (!name_char(text[at - 1]) && text[at - 1] != '.');
    const bool ends = at + name.size() >= text.size() || !name_char(text[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string_view line_at(std::string_view text, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t current = 1; current < line; ++current) {
    const auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  const auto end = text.find('\n', start);
  std::string_view out = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return out;
}

}  // namespace tr2audit
