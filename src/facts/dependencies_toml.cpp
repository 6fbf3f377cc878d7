// facts/dependencies_toml: a small TOML reader for exactly the pyproject.toml tables that declare
// dependencies: [project] dependencies and optional-dependencies (PEP 621), [build-system] requires,
// [dependency-groups] (PEP 735), [tool.uv] dev-dependencies, and Poetry's [tool.poetry.dependencies] /
// [tool.poetry.group.<g>.dependencies] keys. It tracks tables, dotted and quoted keys, basic, literal
// and multi-line strings, and nested arrays/inline tables (with an explicit container stack); any
// other value is skipped. Malformed lines are skipped, never fatal.
#include <utility>

#include "facts/dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

struct StringAt {
  std::string value;
  std::uint32_t line = 0;
};

using Key = std::vector<std::string>;

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/// The section name of a key path whose value is an array of PEP 508 strings; empty when it is not one.
std::string array_section(const Key& key) {
  if (key == Key{"project", "dependencies"}) return "dependencies";
  if (key.size() == 3 && key[0] == "project" && key[1] == "optional-dependencies") {
    return "optional-dependencies." + key[2];
  }
  if (key == Key{"build-system", "requires"}) return "build-system.requires";
  if (key.size() == 2 && key[0] == "dependency-groups") return "dependency-groups." + key[1];
  if (key == Key{"tool", "uv", "dev-dependencies"}) return "tool.uv.dev-dependencies";
  return {};
}

/// For a Poetry dependency key path (tool.poetry[.group.<g>].dependencies.<name>): its section.
std::string poetry_section(const Key& key) {
  if (key.size() == 4 && key[0] == "tool" && key[1] == "poetry" &&
      (key[2] == "dependencies" || key[2] == "dev-dependencies")) {
    return "tool.poetry." + key[2];
  }
  if (key.size() == 6 && key[0] == "tool" && key[1] == "poetry" && key[2] == "group" && key[4] == "dependencies") {
    return "tool.poetry.group." + key[3] + ".dependencies";
  }
  return {};
}

class TomlReader {
 public:
  explicit TomlReader(std::string_view text) : m_text(text) {}

  std::vector<DependencyFact> run() {
    while (true) {
      skip_blank_and_comments();
      if (at_end()) break;
      if (peek() == '[') {
        on_header();
      } else {
        on_key_value();
      }
    }
    return std::move(m_out);
  }

 private:
  bool at_end() const { return m_pos >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0'; }
  void advance(std::size_t count = 1) {
    for (std::size_t i = 0; i < count && !at_end(); ++i) {
      if (m_text[m_pos] == '\n') ++m_line;
      ++m_pos;
    }
  }
  void skip_inline_ws() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\r') advance();
  }
  void skip_to_next_line() {
    while (!at_end() && peek() != '\n') advance();
    advance();
  }
  void skip_blank_and_comments() {
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        advance();
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') advance();
      } else {
        break;
      }
    }
  }

  std::string read_string();
  std::optional<Key> read_key(char terminator);
  void read_value(std::vector<StringAt>* strings);
  void on_header();
  void on_key_value();
  void add_poetry(const std::string& name, std::string spec, std::string section, std::uint32_t line);
  void add_package_root(std::string_view written, std::uint32_t line);

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::uint32_t m_line = 1;
  Key m_table;
  std::vector<DependencyFact> m_out;
};

/// Reads a string starting at its opening quote (basic, literal, or either multi-line form).
std::string TomlReader::read_string() {
  const char quote = peek();
  const bool triple = peek(1) == quote && peek(2) == quote;
  advance(triple ? 3 : 1);
  if (triple && peek() == '\n') advance();
  if (triple && peek() == '\r' && peek(1) == '\n') advance(2);
  std::string value;
  while (!at_end()) {
    const char c = peek();
    if (!triple && c == '\n') break;  // unterminated: stop at the line end
    if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
      advance(triple ? 3 : 1);
      return value;
    }
    if (c == '\\' && quote == '"' && m_pos + 1 < m_text.size()) {
      const char next = peek(1);
      value.push_back(next == 'n' ? '\n' : next == 't' ? '\t' : next);
      advance(2);
      continue;
    }
    value.push_back(c);
    advance();
  }
  return value;
}

/// A dotted key of bare or quoted parts, ending before `terminator` ('=' or ']').
std::optional<Key> TomlReader::read_key(char terminator) {
  Key key;
  while (true) {
    skip_inline_ws();
    if (peek() == '"' || peek() == '\'') {
      key.push_back(read_string());
    } else {
      const std::size_t start = m_pos;
      while (is_bare_key_char(peek())) advance();
      if (m_pos == start) return std::nullopt;
      key.emplace_back(m_text.substr(start, m_pos - start));
    }
    skip_inline_ws();
    if (peek() == '.') {
      advance();
      continue;
    }
    if (peek() == terminator) return key;
    return std::nullopt;
  }
}

/// Skips one value; strings directly inside a top-level array are appended to strings (if given).
void TomlReader::read_value(std::vector<StringAt>* strings) {
  std::string stack;  // open containers: '[' or '{'
  while (true) {
    if (stack.empty()) {
      skip_inline_ws();
    } else {
      skip_blank_and_comments();
    }
    if (at_end()) return;
    const char c = peek();
    if (c == '"' || c == '\'') {
      const std::uint32_t line = m_line;
      std::string value = read_string();
      if (strings != nullptr && stack == "[") strings->push_back(StringAt{std::move(value), line});
      if (stack.empty()) return;
    } else if (c == '[' || c == '{') {
      stack.push_back(c);
      advance();
    } else if (c == ']' || c == '}') {
      if (!stack.empty()) stack.pop_back();
      advance();
      if (stack.empty()) return;
    } else if (stack.empty()) {
      while (!at_end() && peek() != '\n' && peek() != '#') advance();  // a bare scalar: number, bool, date
      return;
    } else if (c == ',' || c == '=' || c == '.') {
      advance();
    } else {
      const std::size_t start = m_pos;
      while (!at_end() && std::string_view(" \t\r\n,]}=#").find(peek()) == std::string_view::npos) advance();
      if (m_pos == start) advance();
    }
  }
}

void TomlReader::on_header() {
  const std::uint32_t line = m_line;
  const std::size_t start = m_pos;
  const bool array_table = peek(1) == '[';
  advance(array_table ? 2 : 1);
  std::optional<Key> key = read_key(']');
  m_table = key ? std::move(*key) : Key{};
  const std::string header(m_text.substr(start, m_pos + 1 - start));
  skip_to_next_line();
  if (m_table.empty()) return;
  // [tool.poetry.dependencies.torch] with version = ... below: the table itself is the dependency.
  Key parent(m_table.begin(), m_table.end() - 1);
  parent.emplace_back("x");
  const std::string section = poetry_section(parent);
  if (!section.empty()) add_poetry(m_table.back(), header, section, line);
}

void TomlReader::on_key_value() {
  const std::uint32_t line = m_line;
  const std::size_t line_start = m_pos;
  std::optional<Key> key = read_key('=');
  if (!key) {
    skip_to_next_line();
    return;
  }
  advance();  // '='
  skip_inline_ws();
  Key full = m_table;
  full.insert(full.end(), key->begin(), key->end());
  if (const std::string section = array_section(full); !section.empty()) {
    std::vector<StringAt> strings;
    read_value(&strings);
    for (StringAt& item : strings) {
      if (auto fact = make_dependency(item.value, section, item.line)) m_out.push_back(std::move(*fact));
    }
  } else if (full == Key{"tool", "setuptools", "packages", "find", "where"}) {
    std::vector<StringAt> strings;
    read_value(&strings);
    for (StringAt& item : strings) add_package_root(item.value, item.line);
  } else if (full == Key{"tool", "setuptools", "package-dir", ""} || full == Key{"tool", "setuptools", "package-dir"}) {
    // `package-dir = {"" = "pkg"}`, or `"" = "pkg"` under `[tool.setuptools.package-dir]`: the root package's folder.
    read_value(nullptr);
    add_package_root(root_package_dir(m_text.substr(line_start, m_pos - line_start), '='), line);
  } else if (const std::string poetry = poetry_section(full); !poetry.empty()) {
    read_value(nullptr);
    std::string spec(trim(m_text.substr(line_start, m_pos - line_start)));
    for (char& c : spec) c = (c == '\n' || c == '\r') ? ' ' : c;
    add_poetry(full.back(), std::move(spec), poetry, line);
  } else {
    read_value(nullptr);
  }
  skip_to_next_line();
}

// A folder the project's packages live in (`where = ["pkg"]`): a "package-root" fact named by the folder.
void TomlReader::add_package_root(std::string_view written, std::uint32_t line) {
  const std::string_view folder = package_root_folder(written);
  if (folder.empty()) return;
  m_out.push_back(DependencyFact{FactString(folder), FactString(folder), "package-root", Span{line, 1, line, 1, 0, 0}});
}

void TomlReader::add_poetry(const std::string& name, std::string spec, std::string section, std::uint32_t line) {
  if (name == "python") return;  // the interpreter constraint, not a distribution
  const std::string normalized = normalize_distribution_name(name);
  if (normalized.empty()) return;
  m_out.push_back(
      DependencyFact{FactString(normalized), FactString(spec), FactString(section), Span{line, 1, line, 1, 0, 0}});
}

}  // namespace

std::string_view package_root_folder(std::string_view folder) {
  while (starts_with(folder, "./")) folder.remove_prefix(2);
  while (!folder.empty() && folder.back() == '/') folder.remove_suffix(1);
  if (folder == "." || folder.find("..") != std::string_view::npos) return {};
  return folder;
}

std::string_view root_package_dir(std::string_view mapping, char separator) {
  for (std::string_view empty_key : {"\"\"", "''"}) {
    const auto at = mapping.find(empty_key);
    if (at == std::string_view::npos) continue;
    const auto sep = mapping.find(separator, at + 2);
    if (sep == std::string_view::npos) continue;
    std::string_view rest = trim(mapping.substr(sep + 1));
    rest = trim(rest.substr(0, rest.find_first_of(",}\n")));
    if (rest.size() >= 2 && (rest.front() == '"' || rest.front() == '\'') && rest.back() == rest.front())
      return rest.substr(1, rest.size() - 2);
  }
  return {};
}

std::vector<DependencyFact> read_pyproject(std::string_view text) {
  return TomlReader(text).run();
}

}  // namespace tr2audit::facts
