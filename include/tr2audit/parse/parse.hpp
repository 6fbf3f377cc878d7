// parse: turns Python text into a tree-sitter tree, with a wall-clock budget per file. One Parser
// per worker thread (TSParser is not thread-safe); the returned tree owns its nodes. Under a
// TreeArena scope (parse/tree_arena) the parser and the tree live in the arena: see its rules.
#pragma once
#include <chrono>
#include <cstdint>
#include <string_view>

#include "tr2audit/parse/ts_handles.hpp"

namespace tr2audit::parse {

struct ParseOutcome {
  TreeHandle tree;         ///< null when parsing was cancelled
  bool timed_out = false;  ///< the budget ran out before the parse finished
  /// Lets go of a tree whose memory a TreeArena scope gives back: ts_tree_delete would only walk it.
  void abandon() { static_cast<void>(tree.release()); }
};

class Parser {
 public:
  Parser();
  /// Parses text (UTF-8); gives up after budget (zero = no limit).
  ParseOutcome parse(std::string_view text, std::chrono::milliseconds budget);

 private:
  ParserHandle m_parser;
};

}  // namespace tr2audit::parse
