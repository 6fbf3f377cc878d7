// gate/comments: finds the comments of a source file without a full parse, so suppression
// directives are read from real comments and never from inside string literals. Python text
// (also notebooks' joined code and TOML) is tokenised for quotes and triple quotes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::gate {

/// How a file kind writes comments.
enum class CommentSyntax {
  python,     ///< `#` outside '..', "..", '''..''', """..""" (any string prefix); also TOML
  hash_line,  ///< `#` at the start of a line or after whitespace (requirements.txt, setup.cfg)
  slash,      ///< `//` line comments (CUDA sources)
};

struct Comment {
  std::uint32_t line = 0;    ///< 1-based
  std::uint32_t column = 0;  ///< 1-based byte column of the comment marker
  std::string text;          ///< after the marker, untrimmed
  bool own_line = false;     ///< only whitespace precedes it on its line
};

/// The comment syntax for a repo-relative path, by extension (".py" -> python, ".cu" -> slash).
CommentSyntax comment_syntax_for(std::string_view path);

/// Every comment in text, in order.
std::vector<Comment> scan_comments(std::string_view text, CommentSyntax syntax);

/// The comments of text that hold `tr2audit:`, with the line each covers: how the directives of files
/// that are not parsed as Python (CUDA sources, manifests) become facts. Python files get theirs
/// from the extraction walk (real comment nodes).
std::vector<facts::DirectiveComment> directive_comments(std::string_view text, CommentSyntax syntax);

}  // namespace tr2audit::gate
