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

/// Comments out IPython-only lines of one code cell (text uses '\n' line ends).
std::string neutralize_magics(std::string_view cell) {
  const std::vector<std::string_view> lines = split_lines(cell);
  const bool cell_magic = !lines.empty() && starts_with(lines.front(), "%%");
  const bool comment_all = cell_magic && !is_python_body_cell_magic(lines.front());
  StatementTracker tracker;
  std::string out;
  out.reserve(cell.size() + 16);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out.push_back('\n');
    const std::string_view line = lines[i];
    const std::size_t first = line.find_first_not_of(" \t");
    const bool magic =
        first != std::string_view::npos && (line[first] == '%' || line[first] == '!' || line[first] == '?');
    if (comment_all || (i == 0 && cell_magic)) {
      if (!line.empty()) out.append("# ").append(line);
    } else if (magic && tracker.at_statement_start()) {
      out.append(comment_out(line));
    } else {
      out.append(line);
      tracker.scan(line);
    }
  }
  return out;
}

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
    text = neutralize_magics(normalize_newlines(text));
    if (text.empty() || text.back() != '\n') text.push_back('\n');
    source.cell_first_lines.push_back(next_line);
    source.cell_numbers.push_back(cell_number);
    for (char c : text) next_line += c == '\n' ? 1 : 0;
    source.text += text;
  }
  result.ok = true;
  return result;
}

}  // namespace tr2audit::discover
