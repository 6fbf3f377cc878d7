// discover/notebook: turns a Jupyter notebook (nbformat 4, or 3's worksheets) into Python text.
// Code cells are joined in order, each ending with one newline, so a cell starts on the line after
// the previous cell's last line. IPython syntax never reaches the parser: a line magic, shell escape
// or help line (%, !, ? at the start of a statement) becomes a comment — at column 0 "# <line>",
// when indented "<indent>pass  # <line>" so a block whose only statement it was stays valid — and a
// cell magic (%%bash, %%writefile, ...) comments out the whole cell, except for magics whose body is
// Python (%%time, %%capture, ...), where only the %% line is commented. Line counts never change.
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "discover/newlines.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/discover/discover.hpp"

namespace tr2audit::discover {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 8> k_python_body_cell_magics{"time",  "timeit", "capture", "prun",
                                                                    "debug", "python", "python3", "memit"};

/// Tracks just enough Python lexing across lines to know whether a line starts a new statement
/// (not inside brackets, a string, or after a backslash continuation).
class StatementTracker {
 public:
  bool at_statement_start() const { return m_depth == 0 && m_quote == 0 && !m_continued; }

  void scan(std::string_view line) {
    m_continued = false;
    std::size_t i = 0;
    while (i < line.size()) {
      const char c = line[i];
      if (m_quote != 0) {
        i = scan_string(line, i);
        continue;
      }
      if (c == '#') return;
      if (c == '\'' || c == '"') {
        m_triple = i + 2 < line.size() && line[i + 1] == c && line[i + 2] == c;
        m_quote = c;
        i += m_triple ? 3 : 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++m_depth;
      if ((c == ')' || c == ']' || c == '}') && m_depth > 0) --m_depth;
      ++i;
    }
    if (m_quote != 0 && !m_triple) m_quote = 0;  // an unterminated one-line string ends at the newline
    m_continued = !line.empty() && line.back() == '\\' && (m_quote == 0 || m_triple);
  }

 private:
  /// Advances inside a string literal starting at line[i]; closes it when its quote appears.
  std::size_t scan_string(std::string_view line, std::size_t i) {
    if (line[i] == '\\') return i + 2;
    if (line[i] != m_quote) return i + 1;
    if (!m_triple) {
      m_quote = 0;
      return i + 1;
    }
    if (i + 2 < line.size() && line[i + 1] == m_quote && line[i + 2] == m_quote) {
      m_quote = 0;
      return i + 3;
    }
    return i + 1;
  }

  int m_depth = 0;
  char m_quote = 0;
  bool m_triple = false;
  bool m_continued = false;
};

std::string comment_out(std::string_view line) {
  const std::size_t indent = line.find_first_not_of(" \t");
  if (indent == 0 || indent == std::string_view::npos) return "# " + std::string(line);
  return std::string(line.substr(0, indent)) + "pass  # " + std::string(line.substr(indent));
}

bool is_python_body_cell_magic(std::string_view first_line) {
  std::string_view name = first_line.substr(2);
  name = name.substr(0, name.find_first_of(" \t"));
  for (std::string_view magic : k_python_body_cell_magics) {
    if (name == magic) return true;
  }
  return false;
}

/// The lines of text split at '\n' (a trailing newline yields a last, empty line).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      return lines;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

/// The first `count` lines of text, each ending with '\n' (missing ones empty).
std::string lines_aligned(std::string_view text, std::size_t count) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (start <= text.size()) {
      const auto end = text.find('\n', start);
      out.append(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
      start = end == std::string_view::npos ? text.size() + 1 : end + 1;
    }
    out.push_back('\n');
  }
  return out;
}

/// Comments out IPython-only lines of one code cell (text uses '\n' line ends). A shell escape that ends
/// with a backslash goes on on the next line (`!deepspeed train.py \` then `    --bf16 true`): those lines
/// are commented out too. Each shell escape line, without its `!`, goes to `shell` at its line (the others
/// empty), when `shell` is given.
std::string neutralize_magics(std::string_view cell, std::string* shell = nullptr) {
  const std::vector<std::string_view> lines = split_lines(cell);
  const bool cell_magic = !lines.empty() && starts_with(lines.front(), "%%");
  const bool comment_all = cell_magic && !is_python_body_cell_magic(lines.front());
  StatementTracker tracker;
  std::string out;
  out.reserve(cell.size() + 16);
  bool continues_shell = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out.push_back('\n');
    if (i > 0 && shell) shell->push_back('\n');
    const std::string_view line = lines[i];
    const std::size_t first = line.find_first_not_of(" \t");
    const bool magic =
        first != std::string_view::npos && (line[first] == '%' || line[first] == '!' || line[first] == '?');
    const bool backslash = !line.empty() && line.back() == '\\';
    if (comment_all || (i == 0 && cell_magic)) {
      if (!line.empty()) out.append("# ").append(line);
    } else if (continues_shell) {
      out.append(comment_out(line));
      if (shell) shell->append(line);
      continues_shell = backslash;
    } else if (magic && tracker.at_statement_start()) {
      out.append(comment_out(line));
      if (line[first] == '!') {
        if (shell) shell->append(line.substr(first + 1));
        continues_shell = backslash;
      }
    } else {
      out.append(line);
      tracker.scan(line);
    }
  }
  return out;
}

/// Where every source line of every cell starts in the notebook's JSON text. nlohmann::json keeps no
/// positions, so one forward pass over the raw text follows the path cells[i].source (nbformat 3:
/// worksheets[0].cells[i].input), a string or a list of strings, and records the place of the first
/// character of each line, escapes decoded ("\n" ends a line; "\r\n" and a lone "\r" count once, as
/// normalize_newlines does). Indexed by the cell's position in the cells array.
class SourcePlaceScanner {
 public:
  explicit SourcePlaceScanner(std::string_view text) : m_text(text) {}

  /// Per cell, the escaped characters of its code: JsonEscape::line is the line's index in the cell.
  const std::vector<std::vector<JsonEscape>>& escapes() const { return m_escapes; }

  std::vector<std::vector<FilePlace>> scan() {
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '"') {
        string_token();
        continue;
      }
      if (c == '{' || c == '[') m_stack.push_back(Frame{c == '{', {}, 0, c == '{'});
      if ((c == '}' || c == ']') && !m_stack.empty()) m_stack.pop_back();
      if (c == ',' && !m_stack.empty()) {
        if (m_stack.back().object)
          m_stack.back().expect_key = true;
        else
          ++m_stack.back().index;
      }
      if (c == ':' && !m_stack.empty() && m_stack.back().object) m_stack.back().expect_key = false;
      step();
    }
    return std::move(m_cells);
  }

 private:
  struct Frame {
    bool object = false;
    std::string key;          ///< objects: the key whose value is being read
    std::uint32_t index = 0;  ///< arrays: the element being read
    bool expect_key = false;
  };

  /// Moves past one byte; columns count code points (UTF-8 continuation bytes add none).
  void step() {
    const char c = m_text[m_at++];
    if (c == '\n') {
      ++m_line;
      m_column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++m_column;
    }
  }

  bool frame_is(std::size_t i, bool object, std::string_view key = {}) const {
    return m_stack[i].object == object && (!object || m_stack[i].key == key);
  }

  /// The cell (index in its cells array) whose source this string is part of, or -1.
  std::int64_t source_cell() const {
    const std::size_t n = m_stack.size();
    for (const auto& [depth, cells_key, source_key] :
         {std::tuple<std::size_t, std::string_view, std::string_view>{0, "cells", "source"},
          std::tuple<std::size_t, std::string_view, std::string_view>{2, "cells", "input"}}) {
      if (depth == 2 && (n < 2 || !frame_is(0, true, "worksheets") || !frame_is(1, false) || m_stack[1].index != 0))
        continue;
      if (n != depth + 3 && n != depth + 4) continue;
      if (!frame_is(depth, true, cells_key) || !frame_is(depth + 1, false) || !frame_is(depth + 2, true, source_key))
        continue;
      if (n == depth + 4 && !frame_is(depth + 3, false)) continue;
      return m_stack[depth + 1].index;
    }
    return -1;
  }

  void string_token() {
    const bool is_key = !m_stack.empty() && m_stack.back().object && m_stack.back().expect_key;
    const std::int64_t cell = is_key ? -1 : source_cell();
    std::vector<FilePlace>* places = nullptr;
    if (cell >= 0) {
      if (m_cells.size() <= static_cast<std::size_t>(cell)) {
        m_cells.resize(static_cast<std::size_t>(cell) + 1);
        m_escapes.resize(static_cast<std::size_t>(cell) + 1);
      }
      places = &m_cells[static_cast<std::size_t>(cell)];
      if (places->empty()) m_line_pending = true;  // the first piece of this cell's source
    }
    std::string key;
    step();  // the opening quote
    while (m_at < m_text.size() && m_text[m_at] != '"') {
      const FilePlace here{m_line, m_column};
      char decoded = m_text[m_at];
      const bool lead = (static_cast<unsigned char>(decoded) & 0xC0) != 0x80;
      std::uint32_t extra = 0;
      step();
      if (decoded == '\\' && m_at < m_text.size()) {
        decoded = m_text[m_at] == 'n' ? '\n' : m_text[m_at] == 'r' ? '\r' : m_text[m_at];
        extra = decoded == 'u' ? 5 : 1;  // \uXXXX is one code point
        step();
        for (int hex = 0; decoded == 'u' && hex < 4 && m_at < m_text.size() && m_text[m_at] != '"'; ++hex) step();
      }
      if (is_key) key.push_back(decoded);
      if (places == nullptr) continue;
      if (m_line_pending) {
        places->push_back(here);
        m_code_column = 1;
      }
      if (extra != 0 && decoded != '\n' && decoded != '\r')
        m_escapes[static_cast<std::size_t>(cell)].push_back(
            JsonEscape{static_cast<std::uint32_t>(places->size() - 1), m_code_column, extra});
      if (lead) ++m_code_column;
      m_line_pending = decoded == '\n' || (decoded == '\r' && !next_is_escaped_newline());
    }
    if (m_at < m_text.size()) step();  // the closing quote
    if (is_key) m_stack.back().key = std::move(key);
  }

  bool next_is_escaped_newline() const {
    return m_at + 1 < m_text.size() && m_text[m_at] == '\\' && m_text[m_at + 1] == 'n';
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::uint32_t m_line = 1;
  std::uint32_t m_column = 1;
  bool m_line_pending = false;
  std::uint32_t m_code_column = 1;  ///< the column, in the decoded code line, of the next character
  std::vector<Frame> m_stack;
  std::vector<std::vector<FilePlace>> m_cells;
  std::vector<std::vector<JsonEscape>> m_escapes;
};

LoadResult fail(const std::string& rel_path, std::string message, std::uint32_t line = 0, std::uint32_t column = 0) {
  LoadResult result;
  result.problem = Problem{ProblemKind::invalid_notebook, rel_path, line, column, std::move(message)};
  return result;
}

/// Reads a cell's source (a string or a list of strings); false when it has another shape.
bool cell_source(const json& cell, std::string& out) {
  const auto it = cell.contains("source") ? cell.find("source") : cell.find("input");  // nbformat 3: "input"
  if (it == cell.end() || it->is_null()) return true;
  if (it->is_string()) {
    out = it->get<std::string>();
    return true;
  }
  if (!it->is_array()) return false;
  for (const json& piece : *it) {
    if (!piece.is_string()) return false;
    out += piece.get_ref<const std::string&>();
  }
  return true;
}

/// The cells array: nbformat 4 "cells", or nbformat 3 "worksheets"[0]."cells".
const json* find_cells(const json& notebook) {
  if (!notebook.is_object()) return nullptr;
  auto it = notebook.find("cells");
  if (it != notebook.end()) return it->is_array() ? &*it : nullptr;
  it = notebook.find("worksheets");
  if (it == notebook.end() || !it->is_array() || it->empty() || !it->front().is_object()) return nullptr;
  const auto cells = it->front().find("cells");
  return cells != it->front().end() && cells->is_array() ? &*cells : nullptr;
}

/// Outputs (images, logs) are never needed: drop them while parsing to keep memory small.
bool skip_outputs(int /*depth*/, json::parse_event_t event, json& parsed) {
  return !(event == json::parse_event_t::key && parsed.is_string() &&
           parsed.get_ref<const std::string&>() == "outputs");
}

LoadResult parse_error_result(std::string_view json_text, const std::string& rel_path, const json::parse_error& e) {
  const std::size_t offset = e.byte > 0 ? std::min<std::size_t>(e.byte - 1, json_text.size()) : 0;
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (json_text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  const auto column = static_cast<std::uint32_t>(offset - line_start + 1);
  std::string reason = e.what();
  const std::size_t tag_end = reason.find("] ");
  if (tag_end != std::string::npos) reason.erase(0, tag_end + 2);
  return fail(rel_path, "invalid notebook JSON (byte offset " + std::to_string(offset) + "): " + reason, line, column);
}

/// Appends the JSON place of each of a code cell's `count` lines. A line the scan did not see (an
/// empty source, a stray "\r") takes the place of the line before it, so every line has one.
void place_cell_lines(const std::vector<std::vector<FilePlace>>& places, std::uint32_t cell, std::uint32_t count,
                      std::vector<FilePlace>& out) {
  const std::vector<FilePlace> none;
  const std::vector<FilePlace>& mine = cell < places.size() ? places[cell] : none;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (i < mine.size())
      out.push_back(mine[i]);
    else
      out.push_back(out.empty() ? FilePlace{1, 1} : out.back());
  }
}

}  // namespace

LoadResult notebook_to_python(std::string_view json_text, const std::string& rel_path) {
  json notebook;
  try {
    notebook = json::parse(json_text.begin(), json_text.end(), skip_outputs);
  } catch (const json::parse_error& e) {
    return parse_error_result(json_text, rel_path, e);
  }
  const json* cells = find_cells(notebook);
  if (cells == nullptr) return fail(rel_path, "not a Jupyter notebook: no 'cells' array (nbformat 4 expected)");

  SourcePlaceScanner scanner(json_text);
  const std::vector<std::vector<FilePlace>> places = scanner.scan();
  LoadResult result;
  LoadedSource& source = result.source;
  std::uint32_t next_line = 1;
  std::uint32_t cell_number = 0;
  for (const json& cell : *cells) {
    ++cell_number;
    if (!cell.is_object()) return fail(rel_path, "cell " + std::to_string(cell_number) + " is not a JSON object");
    const auto type = cell.find("cell_type");
    if (type == cell.end() || !type->is_string() || type->get_ref<const std::string&>() != "code") continue;
    std::string text;
    if (!cell_source(cell, text)) {
      return fail(rel_path, "cell " + std::to_string(cell_number) + ": 'source' is not a string or a list of strings");
    }
    std::string shell;
    text = neutralize_magics(normalize_newlines(text), &shell);
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    source.shell_lines += lines_aligned(shell, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
    source.cell_first_lines.push_back(next_line);
    source.cell_numbers.push_back(cell_number);
    const std::uint32_t first = next_line;
    for (char c : text) next_line += c == '\n' ? 1 : 0;
    place_cell_lines(places, cell_number - 1, next_line - first, source.notebook_places);
    if (cell_number - 1 < scanner.escapes().size()) {
      for (JsonEscape escape : scanner.escapes()[cell_number - 1]) {
        escape.line += first;  // the cell's line index becomes a line of the text
        source.notebook_escapes.push_back(escape);
      }
    }
    source.text += text;
  }
  if (source.shell_lines.find_first_not_of('\n') == std::string::npos) source.shell_lines.clear();
  result.ok = true;
  return result;
}

void neutralize_databricks_magics(std::string& text, std::string& shell_lines) {
  if (!starts_with(text, "# Databricks notebook source")) return;
  std::string shell;
  std::string out = neutralize_magics(text, &shell);
  if (shell.find_first_not_of('\n') != std::string::npos)  // only when there is a shell escape
    shell_lines = lines_aligned(shell, static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n')) +
                                           (out.empty() || out.back() == '\n' ? 0 : 1));
  text = std::move(out);
}

}  // namespace tr2audit::discover
