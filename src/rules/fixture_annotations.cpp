// Parses fixture annotations: `<leader> expect|expect-low|expect-info|ok|todo-expect: ID[, ID] [free text]` refers to
// the next non-blank, non-comment line; `<leader> target: xla` before the first code line picks the profile.
#include <array>

#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/fixture.hpp"

namespace tr2audit::rules {

namespace {

struct Keyword {
  std::string_view word;
  AnnotationKind kind;
  std::optional<Severity> severity;  ///< expect-<severity>: the finding must be reported at it
};
const std::array k_keywords{Keyword{"todo-expect:", AnnotationKind::todo_expect, std::nullopt},
                            Keyword{"expect-blocker:", AnnotationKind::expect, Severity::blocker},
                            Keyword{"expect-high:", AnnotationKind::expect, Severity::high},
                            Keyword{"expect-medium:", AnnotationKind::expect, Severity::medium},
                            Keyword{"expect-low:", AnnotationKind::expect, Severity::low},
                            Keyword{"expect-info:", AnnotationKind::expect, Severity::info},
                            Keyword{"expect:", AnnotationKind::expect, std::nullopt},
                            Keyword{"ok:", AnnotationKind::ok, std::nullopt}};

bool is_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

/// "a.b, c.d   (free text)" -> {"a.b", "c.d"}.
std::vector<std::string> read_ids(std::string_view text) {
  std::vector<std::string> ids;
  std::size_t i = 0;
  for (;;) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_id_char(text[i])) ++i;
    if (i == start) break;
    ids.emplace_back(text.substr(start, i - start));
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i >= text.size() || text[i] != ',') break;
    ++i;
  }
  return ids;
}

bool is_comment(std::string_view trimmed, std::string_view leader) {
  if (starts_with(trimmed, leader)) return true;
  return leader == "//" && (starts_with(trimmed, "/*") || starts_with(trimmed, "*"));
}

/// True when a code line carries an annotation in a trailing comment (which would be ignored).
bool has_trailing_annotation(std::string_view line, std::string_view leader) {
  for (std::size_t at = line.find(leader); at != std::string_view::npos; at = line.find(leader, at + 1)) {
    const std::string_view rest = trim(line.substr(at + leader.size()));
    for (const Keyword& keyword : k_keywords) {
      if (starts_with(rest, keyword.word)) return true;
    }
  }
  return false;
}

class Parser {
 public:
  explicit Parser(std::string_view leader) : m_leader(leader) {}

  void comment(std::string_view body, std::uint32_t line) {
    for (const Keyword& keyword : k_keywords) {
      if (!starts_with(body, keyword.word)) continue;
      const std::vector<std::string> ids = read_ids(body.substr(keyword.word.size()));
      if (ids.empty()) error(line, "'" + std::string(keyword.word) + "' names no rule id");
      for (const std::string& id : ids) {
        m_out.annotations.push_back(Annotation{keyword.kind, id, line, 0, keyword.severity});
        m_pending.push_back(m_out.annotations.size() - 1);
      }
      return;
    }
    if (starts_with(body, "target:")) target(trim(body.substr(7)), line);
  }

  void code(std::string_view text, std::uint32_t line) {
    m_seen_code = true;
    for (std::size_t index : m_pending) m_out.annotations[index].target_line = line;
    m_pending.clear();
    if (has_trailing_annotation(text, m_leader)) {
      error(line, "annotations go on their own line, above the code they refer to");
    }
  }

  FixtureAnnotations finish() {
    for (std::size_t index : m_pending) {
      error(m_out.annotations[index].line, "annotation with no code line after it");
    }
    return std::move(m_out);
  }

 private:
  void target(std::string_view word, std::uint32_t line) {
    if (m_seen_code) return error(line, "'target:' must come before the first code line");
    const auto profile = parse_target_profile(word);
    if (!profile) return error(line, "unknown target '" + std::string(word) + "' (valid: native, xla)");
    m_out.target = profile;
  }
  void error(std::uint32_t line, std::string message) { m_out.errors.push_back({line, std::move(message)}); }

  std::string_view m_leader;
  FixtureAnnotations m_out;
  std::vector<std::size_t> m_pending;
  bool m_seen_code = false;
};

}  // namespace

std::string_view comment_leader(const std::filesystem::path& file) {
  static constexpr std::array<std::string_view, 9> k_c_like{".cu", ".cuh", ".cpp", ".cc", ".cxx",
                                                            ".c",  ".h",   ".hpp", ".hh"};
  const std::string ext = to_lower(file.extension().string());
  for (std::string_view candidate : k_c_like) {
    if (ext == candidate) return "//";
  }
  return "#";
}

FixtureAnnotations parse_annotations(std::string_view text, std::string_view leader) {
  Parser parser(leader);
  std::uint32_t number = 0;
  for (std::string_view line : split(text, '\n')) {
    ++number;
    const std::string_view trimmed = trim(line);
    if (trimmed.empty()) continue;
    if (is_comment(trimmed, leader)) {
      if (starts_with(trimmed, leader)) parser.comment(trim(trimmed.substr(leader.size())), number);
    } else {
      parser.code(trimmed, number);
    }
  }
  return parser.finish();
}

}  // namespace tr2audit::rules
