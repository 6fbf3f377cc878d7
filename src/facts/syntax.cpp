#include "facts/syntax.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {

std::string cap_text(std::string_view text, std::size_t cap) {
  if (text.size() <= cap) return std::string(text);
  std::size_t cut = cap;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";
}

std::string_view SourceView::node_text(TSNode node) const {
  const std::uint32_t start = ts_node_start_byte(node);
  const std::uint32_t end = ts_node_end_byte(node);
  if (start >= m_text.size() || end <= start) return {};
  return m_text.substr(start, std::min<std::size_t>(end, m_text.size()) - start);
}

std::string SourceView::capped_text(TSNode node, std::size_t cap) const {
  return cap_text(node_text(node), cap);
}

std::uint32_t SourceView::column_of(std::uint32_t byte, std::uint32_t byte_column) const {
  if (byte < byte_column || byte > m_text.size()) return byte_column + 1;
  return count_code_points(m_text.substr(byte - byte_column, byte_column)) + 1;
}

Span SourceView::span(TSNode node) const {
  const TSPoint start = ts_node_start_point(node);
  const TSPoint end = ts_node_end_point(node);
  const std::uint32_t start_byte = ts_node_start_byte(node);
  const std::uint32_t end_byte = ts_node_end_byte(node);
  return Span{start.row + 1, column_of(start_byte, start.column),
              end.row + 1,   column_of(end_byte, end.column),
              start_byte,    end_byte};
}

TSNode SourceView::unwrap_parens(TSNode node) const {
  while (is(node, m_kinds.parenthesized_expression) && ts_node_named_child_count(node) == 1)
    node = ts_node_named_child(node, 0);
  return node;
}

namespace {

/// "base.c.b.a" from a base and the segments read from the outside in (a, b, c).
template <class Part>
std::string join_dotted(std::string_view base, const std::vector<Part>& parts) {
  std::string out(base);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    out += '.';
    out += *it;
  }
  return out;
}

}  // namespace

std::optional<std::string> SourceView::dotted_chain(TSNode node) const {
  std::vector<std::string_view> parts;
  node = unwrap_parens(node);
  while (is(node, m_kinds.attribute)) {
    const TSNode attr = ts_node_child_by_field_id(node, m_kinds.f_attribute);
    if (ts_node_is_null(attr)) return std::nullopt;
    parts.push_back(node_text(attr));
    node = unwrap_parens(ts_node_child_by_field_id(node, m_kinds.f_object));
  }
  if (!is(node, m_kinds.identifier)) return std::nullopt;
  return join_dotted(node_text(node), parts);
}

std::optional<std::string> SourceView::keyed_chain(TSNode node) const {
  std::vector<std::string> parts;
  node = unwrap_parens(node);
  for (;;) {
    if (is(node, m_kinds.attribute)) {
      const TSNode attr = ts_node_child_by_field_id(node, m_kinds.f_attribute);
      if (ts_node_is_null(attr)) return std::nullopt;
      parts.emplace_back(node_text(attr));
      node = unwrap_parens(ts_node_child_by_field_id(node, m_kinds.f_object));
    } else if (is(node, m_kinds.subscript)) {
      const auto key = string_literal(ts_node_child_by_field_id(node, m_kinds.f_subscript));
      if (!key || key->empty() || !std::all_of(key->begin(), key->end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
          }))
        return std::nullopt;
      parts.push_back(*key);
      node = unwrap_parens(ts_node_child_by_field_id(node, m_kinds.f_value));
    } else {
      break;
    }
  }
  if (!is(node, m_kinds.identifier)) return std::nullopt;
  return join_dotted(node_text(node), parts);
}

std::optional<std::string> SourceView::string_literal(TSNode node) const {
  node = unwrap_parens(node);
  if (!is(node, m_kinds.string)) return std::nullopt;
  std::string out;
  const std::uint32_t count = ts_node_named_child_count(node);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (is(child, m_kinds.interpolation)) return std::nullopt;
    if (is(child, m_kinds.string_content)) out += node_text(child);
  }
  return out;
}

// One value without looking into sub-expressions (no recursion: a conditional's branches are leaves).
Argument SourceView::leaf_literal(TSNode node) const {
  Argument arg;
  node = unwrap_parens(node);
  if (ts_node_is_null(node)) return arg;
  arg.line = ts_node_start_point(node).row + 1;
  const TSSymbol kind = ts_node_symbol(node);
  if (kind == m_kinds.string) {
    if (auto text = string_literal(node)) {
      arg.kind = LiteralKind::string;
      arg.value = str(cap_text(*text));
      return arg;
    }
  } else if (kind == m_kinds.integer) {
    arg.kind = LiteralKind::integer;
  } else if (kind == m_kinds.unary_operator && ts_node_named_child_count(node) == 1 &&
             node_text(ts_node_child(node, 0)) == "-" &&
             (ts_node_symbol(ts_node_named_child(node, 0)) == m_kinds.integer ||
              ts_node_symbol(ts_node_named_child(node, 0)) == m_kinds.float_)) {
    // `default=-1`: a negative number is a literal too.
    arg.kind =
        ts_node_symbol(ts_node_named_child(node, 0)) == m_kinds.integer ? LiteralKind::integer : LiteralKind::floating;
  } else if (kind == m_kinds.float_) {
    arg.kind = LiteralKind::floating;
  } else if (kind == m_kinds.true_ || kind == m_kinds.false_) {
    arg.kind = LiteralKind::boolean;
  } else if (kind == m_kinds.none) {
    arg.kind = LiteralKind::null;
  } else if (kind == m_kinds.identifier || kind == m_kinds.attribute) {
    arg.kind = dotted_chain(node) ? LiteralKind::name : LiteralKind::other;
  } else {
    arg.kind = LiteralKind::other;
  }
  arg.value = capped(node, 80);
  return arg;
}

bool is_constant(const Argument& value) {
  return value.kind == LiteralKind::string || value.kind == LiteralKind::integer ||
         value.kind == LiteralKind::floating || value.kind == LiteralKind::boolean;
}

Argument SourceView::literal(TSNode node) const {
  node = unwrap_parens(node);
  Argument arg = leaf_literal(node);
  if (ts_node_is_null(node) || !is(node, m_kinds.conditional_expression) || ts_node_named_child_count(node) != 3)
    return arg;
  // `"nccl" if has_gpu else "gloo"`: keep both literal branches and the condition.
  const Argument then_value = leaf_literal(ts_node_named_child(node, 0));
  const Argument else_value = leaf_literal(ts_node_named_child(node, 2));
  if (is_constant(then_value) || is_constant(else_value)) {
    arg.conditional = ConditionalValue{then_value.value, else_value.value, capped(ts_node_named_child(node, 1), 60)};
  }
  return arg;
}

}  // namespace tr2audit::facts
