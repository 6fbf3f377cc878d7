// parse/walk: the one way to traverse a syntax tree: a TSTreeCursor loop with enter/leave events
// and no recursion, so inputs nested many thousands deep cannot overflow the stack.
#pragma once
#include <tree_sitter/api.h>

#include "tr2audit/parse/ts_handles.hpp"

namespace tr2audit::parse {

enum class WalkEvent { enter, leave };

/// What the walker tells a visitor about the current node.
struct WalkStep {
  WalkEvent event;
  TSNode node;
  TSFieldId field;  ///< the field of its parent this node fills (0 when none)
};

/// Visits every node under root in document order. visit(step) returns false on enter to skip
/// the node's children (its leave event still follows).
template <class Visit>
void walk(TSNode root, Visit&& visit) {
  CursorHandle cursor{root};
  TSTreeCursor* cur = cursor.get();
  for (;;) {
    const TSNode node = ts_tree_cursor_current_node(cur);
    const bool descend = visit(WalkStep{WalkEvent::enter, node, ts_tree_cursor_current_field_id(cur)});
    if (descend && ts_tree_cursor_goto_first_child(cur)) continue;
    for (;;) {
      visit(WalkStep{WalkEvent::leave, ts_tree_cursor_current_node(cur), ts_tree_cursor_current_field_id(cur)});
      if (ts_tree_cursor_goto_next_sibling(cur)) break;
      if (!ts_tree_cursor_goto_parent(cur)) return;
    }
  }
}

}  // namespace tr2audit::parse
