// core/compact_array: a fixed-size array on the heap behind one pointer, its length stored in front of
// the items, with value semantics (copies copy the items, == compares them). For a list field of a fact
// held hundreds of thousands of times (a call's arguments): 8 bytes instead of a vector's 24, and
// nothing allocated when it is empty. It is built whole (from a vector or a list), not grown.
#pragma once
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <new>
#include <span>
#include <utility>
#include <vector>

namespace tr2audit {

template <class T>
class CompactArray {
 public:
  CompactArray() = default;
  CompactArray(std::vector<T>&& items) { take(items.begin(), items.end(), items.size()); }  // NOLINT
  CompactArray(std::initializer_list<T> items) { copy(items.begin(), items.size()); }
  CompactArray(const CompactArray& other) { copy(other.begin(), other.size()); }
  CompactArray(CompactArray&& other) noexcept : m_block(std::exchange(other.m_block, nullptr)) {}
  CompactArray& operator=(const CompactArray& other) {
    if (this != &other) {
      CompactArray copied(other);
      std::swap(m_block, copied.m_block);
    }
    return *this;
  }
  CompactArray& operator=(CompactArray&& other) noexcept {
    if (this != &other) {
      release();
      m_block = std::exchange(other.m_block, nullptr);
    }
    return *this;
  }
  CompactArray& operator=(std::vector<T>&& items) { return *this = CompactArray(std::move(items)); }
  CompactArray& operator=(std::initializer_list<T> items) { return *this = CompactArray(items); }
  ~CompactArray() { release(); }

  std::size_t size() const { return m_block ? m_block->size : 0; }
  bool empty() const { return m_block == nullptr; }
  T* begin() { return items(); }
  T* end() { return items() + size(); }
  const T* begin() const { return items(); }
  const T* end() const { return items() + size(); }
  T& operator[](std::size_t i) { return items()[i]; }
  const T& operator[](std::size_t i) const { return items()[i]; }
  const T& front() const { return items()[0]; }
  const T& back() const { return items()[size() - 1]; }
  void clear() { release(); }
  operator std::span<const T>() const { return {begin(), size()}; }  // NOLINT(google-explicit-constructor)

  bool operator==(const CompactArray& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

 private:
  struct alignas(T) Header {
    std::size_t size;
  };

  T* items() const {
    return m_block ? std::launder(reinterpret_cast<T*>(reinterpret_cast<char*>(m_block) + sizeof(Header))) : nullptr;
  }
  Header* allocate(std::size_t n) {
    void* raw = ::operator new (sizeof(Header) + n * sizeof(T), std::align_val_t{alignof(Header)});
    return new (raw) Header{0};
  }
  template <class It>
  void take(It first, It last, std::size_t n) {
    if (n == 0) return;
    Header* block = allocate(n);
    T* out = reinterpret_cast<T*>(reinterpret_cast<char*>(block) + sizeof(Header));
    for (; first != last; ++first, ++out, ++block->size) new (out) T(std::move(*first));
    m_block = block;
  }
  void copy(const T* from, std::size_t n) {
    if (n == 0) return;
    Header* block = allocate(n);
    T* out = reinterpret_cast<T*>(reinterpret_cast<char*>(block) + sizeof(Header));
    m_block = block;  // set first: a throwing copy leaves a valid, shorter array to release
    for (std::size_t i = 0; i < n; ++i, ++out, ++block->size) new (out) T(from[i]);
  }
  void release() {
    if (!m_block) return;
    T* at = items();
    for (std::size_t i = 0; i < m_block->size; ++i) at[i].~T();
    m_block->~Header();
    ::operator delete (m_block, std::align_val_t{alignof(Header)});
    m_block = nullptr;
  }

  Header* m_block = nullptr;
};

}  // namespace tr2audit
