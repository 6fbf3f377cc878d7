// parse/tree_arena: the memory of one file's parse. While a TreeArena::Scope is alive on a thread, every
// allocation tree-sitter makes on that thread (the parser, its stacks, the tree, cursors) comes from the
// arena by bumping a pointer; when the scope ends the whole parse is given back at once. That saves a
// malloc and a free per syntax node and the walk ts_tree_delete makes to release a tree, and it keeps
// the parse's short-lived blocks out of the heap that holds the files' facts (they left holes there).
//
// tree-sitter takes its allocator as four process-wide function pointers (ts_set_allocator); they are
// installed once and send each call to the arena of the calling thread's scope, or to malloc when the
// thread has none (a parser used outside any scope works as before). Rules for users of a scope:
// create the parser inside it, and let nothing tree-sitter allocated inside it outlive it (release the
// tree handle instead of deleting it: see ParseOutcome::abandon).
#pragma once
#include <cstddef>
#include <vector>

namespace tr2audit::parse {

class TreeArena {
 public:
  TreeArena() = default;
  ~TreeArena();
  TreeArena(const TreeArena&) = delete;
  TreeArena& operator=(const TreeArena&) = delete;

  /// Routes this thread's tree-sitter allocations to the arena until destroyed, then resets the arena.
  class Scope {
   public:
    explicit Scope(TreeArena& arena);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    TreeArena& m_arena;
    TreeArena* m_outer;
  };

  void* allocate(std::size_t size);
  /// Grows the newest block in place when it can; otherwise copies into a new block.
  void* reallocate(void* block, std::size_t size);
  /// Takes back the newest block; any other block is reclaimed when the scope ends.
  void release(void* block);
  bool owns(const void* block) const;
  /// Bytes the arena holds from the system (for tests and stats).
  std::size_t reserved() const;

 private:
  struct Chunk {
    std::byte* begin = nullptr;
    std::size_t size = 0;
    std::size_t used = 0;
  };
  const Chunk* chunk_of(const void* block) const;
  void add_chunk(std::size_t at_least);
  void reset();

  std::vector<Chunk> m_chunks;    ///< the last one is where blocks are cut
  std::byte* m_newest = nullptr;  ///< start of the newest block (in the last chunk), for in-place growth
};

}  // namespace tr2audit::parse
