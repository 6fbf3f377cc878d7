// core/qualified_name: a dotted Python name ("torch.cuda.amp.GradScaler") compared by segments,
// so "torch.cuda" is a prefix of "torch.cuda.amp" but not of "torch.cudax". 8 bytes (a FactString).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/fact_string.hpp"

namespace tr2audit {

class QualifiedName {
 public:
  QualifiedName() = default;
  /// Wraps a dotted name; no validation beyond trimming nothing (callers pass parsed names).
  static QualifiedName from_dotted(std::string_view dotted);
  /// Wraps a dotted name already held as a FactString (a file's pooled copy: facts use this).
  static QualifiedName from_text(FactString dotted);

  const FactString& dotted() const { return m_dotted; }
  bool empty() const { return m_dotted.empty(); }
  std::vector<std::string_view> segments() const;
  std::string_view first_segment() const;
  std::string_view last_segment() const;
  /// True when every segment of prefix equals the leading segments of this name.
  bool starts_with(const QualifiedName& prefix) const;
  bool starts_with(std::string_view dotted_prefix) const;
  /// This name with extra dotted segments appended ("torch" + "cuda.amp").
  QualifiedName append(std::string_view dotted_tail) const;

  auto operator<=>(const QualifiedName&) const = default;

 private:
  FactString m_dotted;
};

/// Shell-style glob over dotted names: '*' matches any run of characters (dots included), '?' one.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace tr2audit
