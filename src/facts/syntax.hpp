// facts/syntax (private): reading text, spans, dotted names and literal values off tree-sitter
// nodes. Every helper is iterative; none recurses over the tree.
#pragma once
#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>

#include "tr2audit/core/location.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/parse/node_kinds.hpp"

namespace tr2audit::facts {

inline constexpr std::size_t k_text_cap = 200;

class SourceView {
 public:
  /// strings: the pool the file's facts take their strings from (null: owned copies).
  SourceView(std::string_view text, const parse::NodeKinds& kinds, const FactStrings* strings = nullptr)
      : m_text(text), m_kinds(kinds), m_strings(strings) {}

  std::string_view text() const { return m_text; }
  const parse::NodeKinds& kinds() const { return m_kinds; }
  std::string_view node_text(TSNode node) const;
  /// The node's text, capped at `cap` bytes (cut on a UTF-8 boundary, "…" appended).
  std::string capped_text(TSNode node, std::size_t cap = k_text_cap) const;
  /// A fact's copy of text (from the file's pool).
  FactString str(std::string_view text) const { return m_strings ? (*m_strings)(text) : FactString(text); }
  /// A fact's copy of a dotted name (from the file's pool).
  QualifiedName name(const QualifiedName& name) const { return m_strings ? m_strings->name(name) : name; }
  /// str(capped_text(node, cap)).
  FactString capped(TSNode node, std::size_t cap = k_text_cap) const { return str(capped_text(node, cap)); }
  Span span(TSNode node) const;
  bool is(TSNode node, TSSymbol kind) const { return !ts_node_is_null(node) && ts_node_symbol(node) == kind; }

  /// "a.b.c" for an identifier/attribute chain whose base is an identifier, else nullopt.
  std::optional<std::string> dotted_chain(TSNode node) const;
  /// dotted_chain through string-keyed subscripts too: `config["logging"]["use_wandb"]` -> "config.logging.use_wandb"
  /// (a config dict read like an attribute), for name-like keys only.
  std::optional<std::string> keyed_chain(TSNode node) const;
  /// The content of a plain string literal (no f-string interpolation), else nullopt.
  std::optional<std::string> string_literal(TSNode node) const;
  /// The literal kind and value text of an expression (names/attributes: kind name, text).
  Argument literal(TSNode node) const;
  /// literal() without a conditional expression's branches.
  Argument leaf_literal(TSNode node) const;
  /// Skips parentheses: ((x)) -> x.
  TSNode unwrap_parens(TSNode node) const;

 private:
  std::uint32_t column_of(std::uint32_t byte, std::uint32_t byte_column) const;

  std::string_view m_text;
  const parse::NodeKinds& m_kinds;
  const FactStrings* m_strings = nullptr;
};

/// Cuts text to at most cap bytes on a UTF-8 boundary, appending "…" when cut.
std::string cap_text(std::string_view text, std::size_t cap = k_text_cap);

/// A string, number or boolean literal (not None, a name or an expression).
bool is_constant(const Argument& value);

}  // namespace tr2audit::facts
