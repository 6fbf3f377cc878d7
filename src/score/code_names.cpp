// score/code_names: how reasons, flip and drivers name a finding's code: the matched expression as
// written (`loss.item()`), cut cleanly at a token boundary, then its function, rather than the rule's
// subject word ("item").
#include <algorithm>
#include <cctype>
#include <string>

#include "score/engine.hpp"

namespace tr2audit::score::detail {
namespace {

constexpr std::size_t k_max_expression = 48;  // code points shown of a matched expression

bool is_word(unsigned char c) {
  return std::isalnum(c) || c == '_' || c >= 0x80;
}

/// The byte offset of the 1-based code point `cp` of `text` (its size when past the end).
std::size_t byte_of(const std::string& text, std::uint32_t cp) {
  std::uint32_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && ++seen == cp) return i;
  }
  return text.size();
}

/// The byte where a span starting at `start` ends after `width` columns of the notebook's JSON, where
/// `"` and `\` are written `\"` and `\\`, and control characters `\n`, `\t` or `\u00XX`: a notebook
/// finding's columns are the JSON file's (pipeline::place_in_notebook), its snippet is the source.
std::size_t end_in_json_columns(const std::string& text, std::size_t start, std::uint32_t width) {
  std::size_t i = start;
  for (std::uint32_t used = 0; i < text.size() && used < width; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // inside a UTF-8 sequence: its first byte counted it
    used += c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f' ? 2
            : c < 0x20                                                                             ? 6
                                                                                                   : 1;
  }
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  return i;
}

/// The expression the finding spans on its one-line snippet, or "" when the span is not on it.
std::string matched_expression(const rules::Finding& f) {
  if (f.snippet_column == 0 || f.at.end_line != f.at.line || f.at.end_column <= f.at.column) return {};
  const std::size_t start = byte_of(f.snippet, f.snippet_column);
  const std::uint32_t width = f.at.end_column - f.at.column;
  const std::size_t end =
      f.cell.cell != 0 ? end_in_json_columns(f.snippet, start, width) : byte_of(f.snippet, f.snippet_column + width);
  return start < end ? f.snippet.substr(start, end - start) : std::string();
}

/// A statement the finding spans from its first line (a hard gate's `if not x.is_cuda:` and its
/// `raise`): its header as written, without the colon, or "" when the span starts no such statement.
std::string statement_header(const rules::Finding& f) {
  if (f.snippet_column == 0 || f.at.end_line == f.at.line) return {};
  std::string header = f.snippet.substr(std::min(byte_of(f.snippet, f.snippet_column), f.snippet.size()));
  static constexpr std::string_view k_keywords[] = {"if ", "elif ", "while ", "assert "};
  if (std::none_of(std::begin(k_keywords), std::end(k_keywords),
                   [&](std::string_view k) { return header.starts_with(k); })) {
    return {};
  }
  while (!header.empty() && (header.back() == ' ' || header.back() == ':')) header.pop_back();
  return header;
}

/// A call the finding spans over several lines (`qkv = apply_rotary_pos_emb(` then its arguments): its
/// callee as written on the first line, `apply_rotary_pos_emb(…)`, or "" when the span opens no call there.
std::string call_head(const rules::Finding& f) {
  if (f.snippet_column == 0 || f.at.end_line == f.at.line) return {};
  const std::size_t start = std::min(byte_of(f.snippet, f.snippet_column), f.snippet.size());
  std::size_t i = start;
  while (i < f.snippet.size() && (is_word(static_cast<unsigned char>(f.snippet[i])) || f.snippet[i] == '.')) ++i;
  if (i == start || i >= f.snippet.size() || f.snippet[i] != '(' ||
      std::isdigit(static_cast<unsigned char>(f.snippet[start])))
    return {};
  return f.snippet.substr(start, i - start) + "(…)";
}

}  // namespace

/// A call too long to show whole keeps its callee and the arguments that fit: `load(name="x", …)`.
std::string cut_call(const std::string& text, std::size_t max) {
  const std::size_t open = text.find('(');
  if (open == std::string::npos || open == 0 || open + 1 >= max) return {};  // "(a + b).item()" is not a call
  int depth = 0;
  char quote = 0;
  std::size_t keep = 0;  // end of the last whole argument that fits
  for (std::size_t i = open; i < text.size() && i < max; ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 1) {
      keep = i;
    }
  }
  return text.substr(0, keep ? keep : open + 1) + (keep ? ", …)" : "…)");
}

std::string cut_expression(const std::string& text, std::size_t max) {
  if (text.size() <= max) return text;
  if (std::string call = cut_call(text, max); !call.empty()) return call;
  // Cut before the last token that fits, never inside a word or a UTF-8 sequence.
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  while (cut > max / 2 && is_word(static_cast<unsigned char>(text[cut - 1])) &&
         is_word(static_cast<unsigned char>(text[cut]))) {
    --cut;
  }
  while (cut > 0 && text[cut - 1] == ' ') --cut;
  return text.substr(0, cut) + "…";
}

std::string code_of(const rules::Finding& finding) {
  std::string expression = matched_expression(finding);
  if (expression.find('\n') != std::string::npos) expression.clear();
  if (expression == "__global__") expression.clear();  // a CUDA kernel's qualifier: its name says more
  if (expression.empty()) expression = statement_header(finding);
  // A detector's pattern word (`lock-in-library-call`) names the rule, not the code: a call the span opens
  // says more. A dotted subject (`torch.utils.cpp_extension.load_inline`) says more than the call as written.
  const bool pattern_word =
      finding.subject.find('-') != std::string::npos && finding.subject.find('.') == std::string::npos;
  if (expression.empty() && (pattern_word || finding.subject.empty())) expression = call_head(finding);
  std::string text = !expression.empty()        ? "`" + cut_expression(expression, k_max_expression) + "`"
                     : !finding.subject.empty() ? "`" + cut_expression(finding.subject, k_max_expression) + "`"
                                                : finding.rule_id;
  if (!finding.function.empty()) text += " in `" + finding.function + "`";
  return text;
}

std::string describe_code(const rules::Finding& finding) {
  return code_of(finding) + " (" + location_of(finding) + ")";
}

}  // namespace tr2audit::score::detail
