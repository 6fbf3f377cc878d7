// parse/ts_handles: RAII owners for tree-sitter objects, so nothing leaks on any path and a tree
// outlives every node taken from it (a TSNode points into its TSTree).
#pragma once
#include <tree_sitter/api.h>

#include <memory>

namespace tr2audit::parse {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
struct QueryDeleter {
  void operator()(TSQuery* query) const { ts_query_delete(query); }
};
struct QueryCursorDeleter {
  void operator()(TSQueryCursor* cursor) const { ts_query_cursor_delete(cursor); }
};

using ParserHandle = std::unique_ptr<TSParser, ParserDeleter>;
using TreeHandle = std::unique_ptr<TSTree, TreeDeleter>;
using QueryHandle = std::unique_ptr<TSQuery, QueryDeleter>;
using QueryCursorHandle = std::unique_ptr<TSQueryCursor, QueryCursorDeleter>;

/// A TSTreeCursor is a value type with owned internals; this class deletes them exactly once.
class CursorHandle {
 public:
  explicit CursorHandle(TSNode root) : m_cursor(ts_tree_cursor_new(root)) {}
  ~CursorHandle() { ts_tree_cursor_delete(&m_cursor); }
  CursorHandle(const CursorHandle&) = delete;
  CursorHandle& operator=(const CursorHandle&) = delete;
  TSTreeCursor* get() { return &m_cursor; }

 private:
  TSTreeCursor m_cursor;
};

/// The pinned Python grammar (tree-sitter-python 0.25.0).
const TSLanguage* python_language();

}  // namespace tr2audit::parse
