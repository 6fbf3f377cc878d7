// parse/tree_arena: one file's parse allocated in an arena and given back whole. The trees it yields
// must be the trees malloc yields, blocks must keep their bytes when they grow, and code outside a scope
// must keep using the heap.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <thread>

#include "tr2audit/parse/parse.hpp"
#include "tr2audit/parse/tree_arena.hpp"

using tr2audit::parse::Parser;
using tr2audit::parse::TreeArena;

namespace {

/// Every node's kind and extent, in pre-order: two equal dumps are the same tree.
std::string dump(TSNode root) {
  std::string out;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    out += std::string(ts_node_type(node)) + "@" + std::to_string(ts_node_start_byte(node)) + "-" +
           std::to_string(ts_node_end_byte(node)) + " ";
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

std::string training_code() {
  std::string code =
      "import torch\n"
      "class Block(torch.nn.Module):\n"
      "    def forward(self, x, mask):\n"
      "        if x.sum().item() > 0:\n"
      "            x = x[mask]\n"
      "        return torch.nn.functional.gelu(x)\n";
  for (int i = 0; i < 400; ++i)  // large enough to need more than the arena's first chunk
    code += "def step_" + std::to_string(i) +
            "(model, batch, opt):\n    loss = model(batch).mean()\n"
            "    loss.backward()\n    opt.step()\n    return {'loss': loss.item(), 'n': [b for b in batch]}\n";
  return code + "if (\n";  // a syntax error: error recovery allocates and frees as it goes
}

}  // namespace

TEST_CASE("a parse in the arena yields the tree the heap yields", "[parse][tree_arena]") {
  const std::string code = training_code();
  Parser heap_parser;
  const auto heap = heap_parser.parse(code, std::chrono::milliseconds{0});
  REQUIRE(heap.tree);
  const std::string expected = dump(ts_tree_root_node(heap.tree.get()));
  TreeArena arena;
  for (int round = 0; round < 3; ++round) {  // the kept chunk is reused: the previous parse's bytes are garbage
    const TreeArena::Scope scope(arena);
    Parser parser;
    auto parsed = parser.parse(code, std::chrono::milliseconds{0});
    REQUIRE(parsed.tree);
    CHECK(dump(ts_tree_root_node(parsed.tree.get())) == expected);
    CHECK(arena.owns(parsed.tree.get()));
    CHECK(arena.reserved() > (std::size_t{2} << 20));  // the parse spilled past the first chunk
    parsed.abandon();
  }
  // Outside the scope the arena keeps only its first chunk, and parsers use the heap again.
  CHECK(arena.reserved() == std::size_t{2} << 20);
  Parser after;
  const auto again = after.parse(code, std::chrono::milliseconds{0});
  REQUIRE(again.tree);
  CHECK_FALSE(arena.owns(again.tree.get()));
  CHECK(dump(ts_tree_root_node(again.tree.get())) == expected);
}

TEST_CASE("arena blocks keep their bytes when they grow", "[parse][tree_arena]") {
  TreeArena arena;
  const TreeArena::Scope scope(arena);
  auto* newest = static_cast<char*>(arena.allocate(10));
  std::memcpy(newest, "abcdefghij", 10);
  auto* grown = static_cast<char*>(arena.reallocate(newest, 4000));  // the newest block grows in place
  CHECK(grown == newest);
  CHECK(std::string(grown, 10) == "abcdefghij");
  auto* other = static_cast<char*>(arena.allocate(16));
  std::memcpy(other, "0123456789abcdef", 16);
  auto* moved = static_cast<char*>(arena.reallocate(grown, 8000));  // no longer the newest: copied
  CHECK(moved != grown);
  CHECK(std::string(moved, 10) == "abcdefghij");
  CHECK(std::string(other, 16) == "0123456789abcdef");
  auto* big = static_cast<char*>(arena.reallocate(moved, std::size_t{5} << 20));  // into a new chunk
  CHECK(std::string(big, 10) == "abcdefghij");
  CHECK(arena.owns(big));
  CHECK(arena.reserved() > (std::size_t{2} << 20));
  int on_heap = 0;
  CHECK_FALSE(arena.owns(&on_heap));
}

TEST_CASE("each thread's scope sends only that thread's parses to its arena", "[parse][tree_arena]") {
  const std::string code = training_code();
  std::string dumps[2];
  std::thread workers[2];
  for (int w = 0; w < 2; ++w) {
    workers[w] = std::thread([&, w] {
      TreeArena arena;
      for (int round = 0; round < 4; ++round) {
        const TreeArena::Scope scope(arena);
        Parser parser;
        auto parsed = parser.parse(code, std::chrono::milliseconds{0});
        if (parsed.tree && arena.owns(parsed.tree.get())) dumps[w] = dump(ts_tree_root_node(parsed.tree.get()));
        parsed.abandon();
      }
    });
  }
  for (auto& worker : workers) worker.join();
  CHECK_FALSE(dumps[0].empty());
  CHECK(dumps[0] == dumps[1]);
}
