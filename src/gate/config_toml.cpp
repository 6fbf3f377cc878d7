// The part of TOML a [tool.tr2audit] table needs: bare/quoted/dotted keys, strings (basic, literal,
// multi-line), integers, booleans, arrays (multi-line), inline tables and sub-table headers. Other
// tables are parsed just enough to be skipped.
#include <cctype>

#include "config_raw.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::gate {
namespace {

constexpr std::string_view k_table = "tool.tr2audit";
constexpr int k_max_depth = 8;

class TomlReader {
 public:
  TomlReader(std::string_view text, const std::string& path, std::vector<Problem>& problems)
      : m_text(text), m_path(path), m_problems(problems) {}

  std::optional<RawNode> run() {
    RawNode root;
    root.kind = RawNode::Kind::map;
    std::string table;
    bool found = false;
    while (skip_blank_lines(), !done()) {
      if (peek() == '[') {
        if (!read_header(table)) return std::nullopt;
        if (table == k_table || starts_with(table, std::string(k_table) + ".")) {
          found = true;
          if (root.line == 0) root.line = m_line, root.column = 1;
        }
        continue;
      }
      RawEntry entry;
      if (!read_key_value(entry, 0)) return std::nullopt;
      if (table == k_table) {
        root.entries.push_back(std::move(entry));
      } else if (starts_with(table, std::string(k_table) + ".")) {
        sub_table(root, table.substr(k_table.size() + 1)).entries.push_back(std::move(entry));
      }
    }
    if (!found) return std::nullopt;
    return root;
  }

 private:
  bool done() const { return m_pos >= m_text.size(); }
  char peek(std::size_t k = 0) const { return m_pos + k < m_text.size() ? m_text[m_pos + k] : '\0'; }
  void advance() {
    if (m_text[m_pos] == '\n') ++m_line, m_line_start = m_pos + 1;
    ++m_pos;
  }
  std::uint32_t column() const { return static_cast<std::uint32_t>(m_pos - m_line_start + 1); }
  bool fail(const std::string& message) {
    m_problems.push_back(Problem{ProblemKind::invalid_config, m_path, m_line, column(), message});
    return false;
  }
  void skip_space() {
    while (!done() && (peek() == ' ' || peek() == '\t')) advance();
    if (peek() == '#')
      while (!done() && peek() != '\n') advance();
  }
  void skip_blank_lines() {
    for (skip_space(); !done() && (peek() == '\n' || peek() == '\r'); skip_space()) advance();
  }
  bool end_of_line() {
    skip_space();
    if (peek() == '\r') advance();
    if (done() || peek() == '\n') return true;
    return fail("expected the end of the line");
  }

  RawNode& sub_table(RawNode& root, const std::string& name) {
    for (auto& entry : root.entries) {
      if (entry.key == name && entry.value.kind == RawNode::Kind::map) return entry.value;
    }
    RawEntry entry{name, m_line, 2, RawNode{RawNode::Kind::map}};
    entry.value.line = m_line;
    entry.value.column = 1;
    root.entries.push_back(std::move(entry));
    return root.entries.back().value;
  }

  bool read_header(std::string& table) {
    advance();
    const bool array = peek() == '[';
    if (array) advance();
    std::string name;
    while (!done() && peek() != ']' && peek() != '\n') {
      if (peek() != ' ' && peek() != '\t' && peek() != '"') name.push_back(peek());
      advance();
    }
    if (peek() != ']') return fail("unterminated table header");
    advance();
    if (array && peek() == ']') advance();
    if (array && starts_with(name, k_table)) return fail("[[" + name + "]] is not a valid tr2audit setting");
    table = array ? std::string() : name;
    return end_of_line();
  }

  bool read_key(std::string& key) {
    while (true) {
      if (peek() == '"' || peek() == '\'') {
        RawNode quoted;
        if (!read_string(quoted)) return false;
        key += quoted.scalar;
      } else {
        const std::size_t start = m_pos;
        while (!done() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '-'))
          advance();
        if (m_pos == start) return fail("expected a key");
        key += std::string(m_text.substr(start, m_pos - start));
      }
      skip_space();
      if (peek() != '.') return true;
      key.push_back('.');  // dotted keys stay one name: rule ids contain dots
      advance();
      skip_space();
    }
  }

  bool read_key_value(RawEntry& entry, int depth) {
    entry.line = m_line;
    entry.column = column();
    if (!read_key(entry.key)) return false;
    if (peek() != '=') return fail("expected '=' after '" + entry.key + "'");
    advance();
    skip_space();
    if (!read_value(entry.value, depth)) return false;
    return depth > 0 || end_of_line();
  }

  bool read_string(RawNode& out) {
    const char quote = peek();
    const bool multi = peek(1) == quote && peek(2) == quote;
    for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
    if (multi && peek() == '\n') advance();
    out.quoted = true;
    while (!done()) {
      if (peek() == quote && (!multi || (peek(1) == quote && peek(2) == quote))) {
        for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
        return true;
      }
      if (!multi && peek() == '\n') break;
      if (quote == '"' && peek() == '\\') {
        advance();
        const char c = peek();
        out.scalar.push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);
      } else {
        out.scalar.push_back(peek());
      }
      advance();
    }
    return fail("unterminated string");
  }

  bool read_value(RawNode& out, int depth) {
    out.line = m_line;
    out.column = column();
    if (depth > k_max_depth) return fail("nested too deeply");
    const char c = peek();
    if (c == '"' || c == '\'') return read_string(out);
    if (c == '[' || c == '{') return read_container(out, depth, c == '[' ? ']' : '}');
    const std::size_t start = m_pos;
    while (!done() && peek() != ',' && peek() != ']' && peek() != '}' && peek() != '\n' && peek() != '#' &&
           peek() != ' ' && peek() != '\t' && peek() != '\r')
      advance();
    out.scalar = std::string(m_text.substr(start, m_pos - start));
    if (out.scalar.empty()) return fail("expected a value");
    return true;
  }

  bool read_container(RawNode& out, int depth, char close) {
    out.kind = close == ']' ? RawNode::Kind::list : RawNode::Kind::map;
    advance();
    for (skip_blank_lines(); peek() != close; skip_blank_lines()) {
      if (done()) return fail(std::string("unterminated ") + (close == ']' ? "array" : "inline table"));
      if (close == ']') {
        out.items.emplace_back();
        if (!read_value(out.items.back(), depth + 1)) return false;
      } else {
        out.entries.emplace_back();
        if (!read_key_value(out.entries.back(), depth + 1)) return false;
      }
      skip_blank_lines();
      if (peek() == ',')
        advance();
      else if (peek() != close)
        return fail(std::string("expected ',' or '") + close + "'");
    }
    advance();
    return true;
  }

  std::string_view m_text;
  const std::string& m_path;
  std::vector<Problem>& m_problems;
  std::size_t m_pos = 0;
  std::size_t m_line_start = 0;
  std::uint32_t m_line = 1;
};

}  // namespace

std::optional<RawNode> read_toml_config(std::string_view text, const std::string& path,
                                        std::vector<Problem>& problems) {
  return TomlReader(text, path, problems).run();
}

bool has_tool_table(std::string_view toml_text) {
  for (std::string_view line : split(toml_text, '\n')) {
    std::string compact;
    for (char c : trim(line)) {
      if (c != ' ' && c != '\t' && c != '"') compact.push_back(c);
    }
    if (compact == "[tool.tr2audit]" || starts_with(compact, "[tool.tr2audit.")) return true;
  }
  return false;
}

}  // namespace tr2audit::gate
