#include "tr2audit/gate/comments.hpp"

#include "tr2audit/core/text.hpp"

namespace tr2audit::gate {
namespace {

/// A cursor over text that tracks the 1-based line and where that line starts.
struct Cursor {
  std::string_view text;
  std::size_t i = 0;
  std::uint32_t line = 1;
  std::size_t line_start = 0;

  bool done() const { return i >= text.size(); }
  char at(std::size_t offset = 0) const { return i + offset < text.size() ? text[i + offset] : '\0'; }
  void advance() {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    ++i;
  }
  bool only_space_before() const {
    for (std::size_t k = line_start; k < i; ++k) {
      if (text[k] != ' ' && text[k] != '\t' && text[k] != '\f' && text[k] != '\r') return false;
    }
    return true;
  }
};

/// Reads a comment from the marker (of length marker_size) to the end of the line.
Comment read_comment(Cursor& c, std::size_t marker_size) {
  Comment comment;
  comment.line = c.line;
  comment.column = static_cast<std::uint32_t>(c.i - c.line_start + 1);
  comment.own_line = c.only_space_before();
  std::size_t end = c.text.find('\n', c.i);
  if (end == std::string_view::npos) end = c.text.size();
  std::string_view body = c.text.substr(c.i + marker_size, end - c.i - marker_size);
  if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
  comment.text = std::string(body);
  while (c.i < end) c.advance();
  return comment;
}

/// Skips a Python string starting at the quote under the cursor (prefixes were already consumed).
void skip_python_string(Cursor& c) {
  const char quote = c.at();
  const bool triple = c.at(1) == quote && c.at(2) == quote;
  for (std::size_t k = 0; k < (triple ? 3u : 1u); ++k) c.advance();
  while (!c.done()) {
    const char ch = c.at();
    if (ch == '\\') {
      c.advance();
      if (!c.done()) c.advance();
      continue;
    }
    if (!triple && ch == '\n') return;  // unterminated single-line string: stop at the line end
    if (ch == quote && (!triple || (c.at(1) == quote && c.at(2) == quote))) {
      for (std::size_t k = 0; k < (triple ? 3u : 1u); ++k) c.advance();
      return;
    }
    c.advance();
  }
}

bool is_identifier_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
         static_cast<unsigned char>(ch) >= 0x80;
}

std::vector<Comment> scan_python(std::string_view text) {
  std::vector<Comment> out;
  Cursor c{text};
  while (!c.done()) {
    const char ch = c.at();
    if (ch == '#') {
      out.push_back(read_comment(c, 1));
    } else if (ch == '\'' || ch == '"') {
      skip_python_string(c);
    } else if (is_identifier_char(ch)) {
      while (!c.done() && is_identifier_char(c.at())) c.advance();  // names and string prefixes (rb"..")
    } else {
      c.advance();
    }
  }
  return out;
}

std::vector<Comment> scan_lines(std::string_view text, std::string_view marker, bool need_space_before) {
  std::vector<Comment> out;
  Cursor c{text};
  while (!c.done()) {
    const bool boundary = c.i == c.line_start || c.text[c.i - 1] == ' ' || c.text[c.i - 1] == '\t';
    if (c.text.substr(c.i, marker.size()) == marker && (!need_space_before || boundary)) {
      out.push_back(read_comment(c, marker.size()));
    } else {
      c.advance();
    }
  }
  return out;
}

}  // namespace

CommentSyntax comment_syntax_for(std::string_view path) {
  if (ends_with(path, ".cu") || ends_with(path, ".cuh")) return CommentSyntax::slash;
  if (ends_with(path, ".txt") || ends_with(path, ".cfg") || ends_with(path, ".in")) return CommentSyntax::hash_line;
  return CommentSyntax::python;
}

std::vector<Comment> scan_comments(std::string_view text, CommentSyntax syntax) {
  switch (syntax) {
    case CommentSyntax::python:
      return scan_python(text);
    case CommentSyntax::hash_line:
      return scan_lines(text, "#", true);
    case CommentSyntax::slash:
      return scan_lines(text, "//", false);
  }
  return {};
}

std::vector<facts::DirectiveComment> directive_comments(std::string_view text, CommentSyntax syntax) {
  if (text.find("tr2audit:") == std::string_view::npos) return {};
  std::vector<facts::DirectiveComment> out;
  std::vector<std::uint32_t> comment_only;
  for (Comment& c : scan_comments(text, syntax)) {
    if (c.own_line) comment_only.push_back(c.line);
    if (c.text.find("tr2audit:") == std::string::npos) continue;
    out.push_back(facts::DirectiveComment{c.line, c.column, c.line, c.own_line, FactString(c.text)});
  }
  facts::set_covered_lines(out, comment_only);
  return out;
}

}  // namespace tr2audit::gate
