#include "tr2audit/parse/tree_arena.hpp"

#include <sys/mman.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TR2AUDIT_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TR2AUDIT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TR2AUDIT_POISON(p, n) ((void)(p), (void)(n))
#define TR2AUDIT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace tr2audit::parse {
namespace {

constexpr std::size_t k_align = 16;
/// The chunk a worker keeps between files: most files' parses fit in it, so they touch no new pages.
constexpr std::size_t k_first_chunk = std::size_t{2} << 20;

/// The arena of the calling thread's innermost scope. tree-sitter's allocator hooks are process-wide
/// function pointers with no context argument, so this per-thread pointer is how a call finds its arena.
thread_local TreeArena* t_current = nullptr;

[[noreturn]] void out_of_memory(std::size_t size) {
  std::fprintf(stderr, "tr2audit: tree-sitter failed to allocate %zu bytes\n", size);
  std::abort();  // as tree-sitter's own allocator does: its C code cannot unwind an exception
}

void* hook_malloc(std::size_t size) {
  if (TreeArena* arena = t_current) return arena->allocate(size);
  void* block = std::malloc(size);
  if (size > 0 && block == nullptr) out_of_memory(size);
  return block;
}

void* hook_calloc(std::size_t count, std::size_t size) {
  if (TreeArena* arena = t_current) {
    if (size != 0 && count > SIZE_MAX / size) out_of_memory(SIZE_MAX);
    void* block = arena->allocate(count * size);
    std::memset(block, 0, count * size);  // a kept chunk holds the previous file's bytes
    return block;
  }
  void* block = std::calloc(count, size);
  if (count > 0 && size > 0 && block == nullptr) out_of_memory(count * size);
  return block;
}

void* hook_realloc(void* block, std::size_t size) {
  TreeArena* arena = t_current;
  if (arena != nullptr && (block == nullptr || arena->owns(block))) return arena->reallocate(block, size);
  void* moved = std::realloc(block, size);  // a block from before the scope stays on the heap
  if (size > 0 && moved == nullptr) out_of_memory(size);
  return moved;
}

void hook_free(void* block) {
  if (block == nullptr) return;
  if (TreeArena* arena = t_current; arena != nullptr && arena->owns(block)) {
    arena->release(block);
    return;
  }
  std::free(block);
}

void install_hooks() {
  static std::once_flag installed;
  std::call_once(installed, [] { ts_set_allocator(hook_malloc, hook_calloc, hook_realloc, hook_free); });
}

std::size_t aligned(std::size_t size) {
  return (std::max<std::size_t>(size, 1) + (k_align - 1)) & ~(k_align - 1);
}

bool within(const void* block, const std::byte* begin, std::size_t size) {
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  const auto from = reinterpret_cast<std::uintptr_t>(begin);
  return at >= from && at - from < size;
}

}  // namespace

TreeArena::~TreeArena() {
  for (const Chunk& chunk : m_chunks) munmap(chunk.begin, chunk.size);
}

TreeArena::Scope::Scope(TreeArena& arena) : m_arena(arena), m_outer(t_current) {
  install_hooks();
  t_current = &arena;
}

TreeArena::Scope::~Scope() {
  t_current = m_outer;
  m_arena.reset();
}

void TreeArena::add_chunk(std::size_t at_least) {
  std::size_t size = m_chunks.empty() ? k_first_chunk : m_chunks.back().size * 2;
  while (size < at_least) size *= 2;
  void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) out_of_memory(size);
  TR2AUDIT_POISON(memory, size);
  m_chunks.push_back(Chunk{static_cast<std::byte*>(memory), size, 0});
}

void* TreeArena::allocate(std::size_t size) {
  const std::size_t need = aligned(size);
  if (need < size) out_of_memory(size);
  if (m_chunks.empty() || m_chunks.back().size - m_chunks.back().used < need) add_chunk(need);
  Chunk& chunk = m_chunks.back();
  std::byte* block = chunk.begin + chunk.used;
  chunk.used += need;
  m_newest = block;
  TR2AUDIT_UNPOISON(block, need);
  return block;
}

void* TreeArena::reallocate(void* block, std::size_t size) {
  if (block == nullptr) return allocate(size);
  const std::size_t need = aligned(size);
  if (need < size) out_of_memory(size);
  Chunk& last = m_chunks.back();
  if (block == m_newest && static_cast<std::size_t>(m_newest - last.begin) + need <= last.size) {
    const std::size_t old_end = last.used;
    last.used = static_cast<std::size_t>(m_newest - last.begin) + need;
    if (last.used > old_end) TR2AUDIT_UNPOISON(last.begin + old_end, last.used - old_end);
    return block;
  }
  // The block's own size is not recorded: copy what it may hold, up to its chunk's used end (bytes past
  // the block belong to later blocks and land in the new block's tail, which the caller has not filled).
  const Chunk* chunk = chunk_of(block);
  const std::size_t extent = static_cast<std::size_t>(chunk->begin + chunk->used - static_cast<std::byte*>(block));
  void* moved = allocate(size);
  std::memcpy(moved, block, std::min(size, extent));
  return moved;
}

void TreeArena::release(void* block) {
  if (block != m_newest || m_chunks.empty()) return;
  Chunk& last = m_chunks.back();
  const std::size_t start = static_cast<std::size_t>(m_newest - last.begin);
  TR2AUDIT_POISON(m_newest, last.used - start);
  last.used = start;
  m_newest = nullptr;
}

const TreeArena::Chunk* TreeArena::chunk_of(const void* block) const {
  for (auto it = m_chunks.rbegin(); it != m_chunks.rend(); ++it) {
    if (within(block, it->begin, it->size)) return &*it;
  }
  return nullptr;
}

bool TreeArena::owns(const void* block) const {
  return chunk_of(block) != nullptr;
}

std::size_t TreeArena::reserved() const {
  std::size_t total = 0;
  for (const Chunk& chunk : m_chunks) total += chunk.size;
  return total;
}

void TreeArena::reset() {
  // Keep the first chunk for the next file; larger parses give their extra chunks back to the system.
  for (std::size_t i = 1; i < m_chunks.size(); ++i) munmap(m_chunks[i].begin, m_chunks[i].size);
  if (!m_chunks.empty()) {
    m_chunks.resize(1);
    TR2AUDIT_POISON(m_chunks.front().begin, m_chunks.front().used);
    m_chunks.front().used = 0;
  }
  m_newest = nullptr;
}

}  // namespace tr2audit::parse
