// discover/gitignore: compiling and matching gitignore-style patterns (see gitignore.hpp).
#include "discover/gitignore.hpp"

#include <utility>

#include "tr2audit/discover/discover.hpp"

namespace tr2audit::discover {
namespace {

constexpr std::size_t k_none = std::string_view::npos;
constexpr std::string_view k_globstar = "**";

/// Splits a '/' separated path into its non-empty segments.
std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == k_none) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

/// Index just past the UTF-8 code point starting at i.
std::size_t next_code_point(std::string_view text, std::size_t i) {
  ++i;
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0u) == 0x80u) ++i;
  return i;
}

struct ClassMatch {
  bool valid = false;    ///< a closing ']' exists
  bool matched = false;  ///< the character is in the class
  std::size_t next = 0;  ///< pattern index after ']'
};

/// Matches one byte against the bracket expression starting at pattern[open] == '['.
ClassMatch match_class(std::string_view pattern, std::size_t open, char ch) {
  std::size_t i = open + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool hit = false;
  bool first = true;
  while (i < pattern.size()) {
    char lo = pattern[i];
    if (lo == ']' && !first) return {true, hit != negate, i + 1};
    first = false;
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      i += 2;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (c >= static_cast<unsigned char>(lo) && c <= static_cast<unsigned char>(hi)) hit = true;
    ++i;
  }
  return {};
}

/// One step of segment matching: consumes pattern[p] against text[t]; returns false on mismatch.
bool match_one(std::string_view pattern, std::size_t& p, std::string_view text, std::size_t& t) {
  const char c = pattern[p];
  if (c == '?') {
    ++p;
    t = next_code_point(text, t);
    return true;
  }
  if (c == '[') {
    const ClassMatch cls = match_class(pattern, p, text[t]);
    if (cls.valid) {
      if (!cls.matched) return false;
      p = cls.next;
      ++t;
      return true;
    }
  }
  std::size_t len = 1;
  char literal = c;
  if (c == '\\' && p + 1 < pattern.size()) {
    literal = pattern[p + 1];
    len = 2;
  }
  if (literal != text[t]) return false;
  p += len;
  ++t;
  return true;
}

/// Glob within one path segment: '*' any run, '?' one code point, '[...]' a class, '\x' a literal.
/// Iterative, backtracking only to the most recent '*' (which is sufficient for '*' globs).
bool segment_matches(std::string_view pattern, std::string_view text) {
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star_p = k_none;
  std::size_t star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star_p = ++p;
      star_t = t;
      continue;
    }
    if (p < pattern.size() && match_one(pattern, p, text, t)) continue;
    if (star_p == k_none) return false;
    p = star_p;
    star_t = next_code_point(text, star_t);
    t = star_t;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// Matches pattern segments against path segments; "**" spans any number of segments.
bool segments_match(const std::vector<std::string>& pattern, const std::vector<std::string_view>& path) {
  std::size_t p = 0;
  std::size_t s = 0;
  std::size_t star_p = k_none;
  std::size_t star_s = 0;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == k_globstar) {
      star_p = ++p;
      star_s = s;
      continue;
    }
    if (p < pattern.size() && segment_matches(pattern[p], path[s])) {
      ++p;
      ++s;
      continue;
    }
    if (star_p == k_none) return false;
    p = star_p;
    s = ++star_s;
  }
  while (p < pattern.size() && pattern[p] == k_globstar) ++p;
  return p == pattern.size();
}

/// Removes unescaped trailing spaces (gitignore ignores them) and a trailing '\r'.
std::string_view strip_trailing_space(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) {
    if (line.size() >= 2 && line[line.size() - 2] == '\\') break;
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

std::optional<GlobPattern> compile_glob(std::string_view line) {
  line = strip_trailing_space(line);
  if (line.empty() || line.front() == '#') return std::nullopt;
  GlobPattern out;
  if (line.front() == '!') {
    out.negated = true;
    line.remove_prefix(1);
  }
  while (!line.empty() && line.back() == '/') {
    out.dir_only = true;
    line.remove_suffix(1);
  }
  if (line.empty()) return std::nullopt;
  const bool anchored = line.find('/') != k_none;
  for (std::string_view segment : split_path(line)) {
    if (segment == k_globstar && !out.segments.empty() && out.segments.back() == k_globstar) continue;
    out.segments.emplace_back(segment);
  }
  if (out.segments.empty()) return std::nullopt;
  if (!anchored) {
    out.segments.insert(out.segments.begin(), std::string(k_globstar));
  } else if (out.segments.size() > 1 && out.segments.back() == k_globstar) {
    // "dir/**" matches everything inside dir, but not dir itself: at least one more segment.
    out.segments.back() = "*";
    out.segments.emplace_back(k_globstar);
  }
  return out;
}

bool glob_matches(const GlobPattern& pattern, std::string_view path, bool is_dir) {
  if (pattern.dir_only && !is_dir) return false;
  return segments_match(pattern.segments, split_path(path));
}

RuleSet::RuleSet(std::string base, std::vector<GlobPattern> patterns)
    : m_base(std::move(base)), m_patterns(std::move(patterns)) {}

RuleSet RuleSet::parse(std::string base, std::string_view text) {
  std::vector<GlobPattern> patterns;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == k_none) end = text.size();
    if (auto pattern = compile_glob(text.substr(start, end - start))) patterns.push_back(std::move(*pattern));
    start = end + 1;
  }
  return RuleSet(std::move(base), std::move(patterns));
}

std::optional<bool> RuleSet::decide(std::string_view rel_path, bool is_dir) const {
  if (m_patterns.empty()) return std::nullopt;
  if (!m_base.empty()) {
    if (rel_path.size() <= m_base.size() || rel_path.substr(0, m_base.size()) != m_base ||
        rel_path[m_base.size()] != '/') {
      return std::nullopt;
    }
    rel_path.remove_prefix(m_base.size() + 1);
  }
  const std::vector<std::string_view> segments = split_path(rel_path);
  for (auto it = m_patterns.rbegin(); it != m_patterns.rend(); ++it) {
    if (it->dir_only && !is_dir) continue;
    if (segments_match(it->segments, segments)) return !it->negated;
  }
  return std::nullopt;
}

/// Matches the path itself and, as directories, each of its parent folders: a file inside an
/// ignored folder is ignored too. A leading '!' is ignored here (the pattern's positive part).
bool path_matches_glob(std::string_view pattern, std::string_view rel_path, bool is_dir) {
  const std::optional<GlobPattern> compiled = compile_glob(pattern);
  if (!compiled) return false;
  const std::vector<std::string_view> segments = split_path(rel_path);
  for (std::size_t count = 1; count <= segments.size(); ++count) {
    const bool last = count == segments.size();
    if (compiled->dir_only && last && !is_dir) continue;
    const std::vector<std::string_view> prefix(segments.begin(), segments.begin() + static_cast<long>(count));
    if (segments_match(compiled->segments, prefix)) return true;
  }
  return false;
}

}  // namespace tr2audit::discover
