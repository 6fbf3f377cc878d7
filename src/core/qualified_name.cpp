#include "tr2audit/core/qualified_name.hpp"

#include <utility>

namespace tr2audit {

QualifiedName QualifiedName::from_dotted(std::string_view dotted) {
  QualifiedName name;
  name.m_dotted = FactString(dotted);
  return name;
}

QualifiedName QualifiedName::from_text(FactString dotted) {
  QualifiedName name;
  name.m_dotted = std::move(dotted);
  return name;
}

std::vector<std::string_view> QualifiedName::segments() const {
  std::vector<std::string_view> out;
  std::string_view rest = m_dotted.view();
  while (!rest.empty()) {
    const auto dot = rest.find('.');
    out.push_back(rest.substr(0, dot));
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  return out;
}

std::string_view QualifiedName::first_segment() const {
  const std::string_view all = m_dotted.view();
  return all.substr(0, all.find('.'));
}

std::string_view QualifiedName::last_segment() const {
  const std::string_view all = m_dotted.view();
  const auto dot = all.rfind('.');
  return dot == std::string_view::npos ? all : all.substr(dot + 1);
}

bool QualifiedName::starts_with(std::string_view prefix) const {
  if (prefix.empty()) return true;
  if (m_dotted.size() < prefix.size() || m_dotted.substr(0, prefix.size()) != prefix) return false;
  return m_dotted.size() == prefix.size() || m_dotted[prefix.size()] == '.';
}

bool QualifiedName::starts_with(const QualifiedName& prefix) const {
  return starts_with(prefix.m_dotted);
}

QualifiedName QualifiedName::append(std::string_view dotted_tail) const {
  if (dotted_tail.empty()) return *this;
  if (m_dotted.empty()) return from_dotted(dotted_tail);
  return from_dotted(m_dotted + "." + std::string(dotted_tail));
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative wildcard matching with single-star backtracking: linear in practice, no recursion.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace tr2audit
