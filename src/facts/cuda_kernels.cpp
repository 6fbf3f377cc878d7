// CUDA kernels in C++/CUDA text: one PatternFact ("cuda-kernel") per `__global__` function, at the
// line of the qualifier. A lexical scan (these files are never parsed): comments and string literals
// are skipped, the kernel name is the identifier before the parameter list (after any
// `__launch_bounds__(...)`).
#include <algorithm>
#include <cstdint>
#include <string>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {
namespace {

constexpr std::string_view k_global = "__global__";

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// The name of the function declared after `__global__` at `pos` ("" when none is found nearby).
std::string kernel_name(std::string_view text, std::size_t pos) {
  constexpr std::size_t k_window = 600;
  std::size_t i = pos + k_global.size();
  const std::size_t end = std::min(text.size(), i + k_window);
  std::size_t name_start = std::string_view::npos, name_end = 0;
  while (i < end) {
    const char c = text[i];
    if (is_ident_char(c)) {
      const std::size_t start = i;
      while (i < end && is_ident_char(text[i])) ++i;
      name_start = start;
      name_end = i;
      continue;
    }
    if (c == '(') {
      if (name_start == std::string_view::npos) return {};
      const std::string_view name = text.substr(name_start, name_end - name_start);
      if (name != "__launch_bounds__" && name != "__attribute__" && name != "alignas") return std::string(name);
      int depth = 0;  // skip the qualifier's arguments
      for (; i < end; ++i) {
        if (text[i] == '(') ++depth;
        if (text[i] == ')' && --depth == 0) break;
      }
      name_start = std::string_view::npos;
    } else if (c == ';' || c == '{') {
      return {};
    }
    ++i;
  }
  return {};
}

}  // namespace

std::vector<PatternFact> find_cuda_kernels(std::string_view text) {
  std::vector<PatternFact> out;
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  bool block_comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    if (block_comment) {
      if (c == '*' && i + 1 < text.size() && text[i + 1] == '/') block_comment = false, ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      if (text[i + 1] == '*') {
        block_comment = true;
        ++i;
      } else {
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;  // line comment
      }
      continue;
    }
    if (c == '"') {  // string literal on one line
      while (i + 1 < text.size() && text[i + 1] != '"' && text[i + 1] != '\n') i += text[i + 1] == '\\' ? 2 : 1;
      ++i;
      continue;
    }
    if (c != '_' || text.compare(i, k_global.size(), k_global) != 0) continue;
    if ((i > 0 && is_ident_char(text[i - 1])) ||
        (i + k_global.size() < text.size() && is_ident_char(text[i + k_global.size()])))
      continue;
    const std::string name = kernel_name(text, i);
    const auto column = static_cast<std::uint32_t>(i - line_start + 1);
    Span at{line,
            column,
            line,
            column + static_cast<std::uint32_t>(k_global.size()),
            static_cast<std::uint32_t>(i),
            static_cast<std::uint32_t>(i + k_global.size())};
    out.push_back(
        PatternFact{"cuda-kernel", FactString(name.empty() ? std::string("(unnamed)") : name), at, Context{}});
    i += k_global.size() - 1;
  }
  return out;
}

void cuda_source_names(std::string_view text, std::vector<std::string>& out) {
  const auto name_char = [](char c) { return is_ident_char(c) || c == '-' || c == '.' || c == '/'; };
  for (std::size_t pos = text.find(".cu"); pos != std::string_view::npos; pos = text.find(".cu", pos + 3)) {
    std::size_t end = pos + 3;
    if (end < text.size() && text[end] == 'h') ++end;
    if (end < text.size() && is_ident_char(text[end])) continue;  // `.cuda`, `.cube`
    std::size_t start = pos;
    while (start > 0 && name_char(text[start - 1])) --start;
    out.emplace_back(text.substr(start, end - start));
    if (start == pos) out.back().clear();
  }
}

}  // namespace tr2audit::facts
