// Suppression directives as facts: the extraction walk records the comments that hold `tr2audit:`
// (tree-sitter comment nodes, so never text inside a string) and the comment-only lines they stack over.
#include <algorithm>

#include "facts/walker.hpp"
#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

void Walker::on_comment(TSNode node) {
  if (m_mode != Mode::full) return;
  const std::string_view src = m_src.text();
  std::size_t k = ts_node_start_byte(node);
  while (k > 0 && (src[k - 1] == ' ' || src[k - 1] == '\t' || src[k - 1] == '\f' || src[k - 1] == '\r')) --k;
  const bool own_line = k == 0 || src[k - 1] == '\n';
  const TSPoint at = ts_node_start_point(node);
  const std::uint32_t line = at.row + 1;
  if (own_line) m_comment_only_lines.push_back(line);
  std::string_view text = m_src.node_text(node);
  if (text.find("tr2audit:") == std::string_view::npos) return;
  text.remove_prefix(text.empty() ? 0 : 1);  // the '#'
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  m_out.directives.push_back(DirectiveComment{line, at.column + 1, line, own_line, m_src.str(text)});
}

void set_covered_lines(std::vector<DirectiveComment>& directives,
                       const std::vector<std::uint32_t>& comment_only_lines) {
  for (DirectiveComment& d : directives) {
    std::uint32_t line = d.line;
    if (d.own_line) {
      auto it = std::lower_bound(comment_only_lines.begin(), comment_only_lines.end(), line);
      while (it != comment_only_lines.end() && *it == line) {
        ++line;
        it = std::lower_bound(it, comment_only_lines.end(), line);
      }
    }
    d.covers = line;
  }
}

}  // namespace tr2audit::facts
