#include "tr2audit/core/fact_string.hpp"

#include <algorithm>
#include <cstring>
#include <ostream>

namespace tr2audit {
namespace {

constexpr std::size_t k_header = sizeof(std::uint32_t);
constexpr std::size_t k_min_chunk = 256;
constexpr std::size_t k_max_chunk = 16 * 1024;

void write_entry(char* at, std::string_view text) {
  const auto length = static_cast<std::uint32_t>(text.size());
  std::memcpy(at, &length, k_header);
  if (!text.empty()) std::memcpy(at + k_header, text.data(), text.size());
  at[k_header + text.size()] = '\0';
}

std::uintptr_t owned_copy(std::string_view text) {
  if (text.empty()) return 0;
  // operator new returns memory aligned for any scalar, so the low bit is free for k_borrowed.
  char* block = static_cast<char*>(::operator new(k_header + text.size() + 1));
  write_entry(block, text);
  return reinterpret_cast<std::uintptr_t>(block);
}

}  // namespace

FactString::FactString(std::string_view text) : m_bits(owned_copy(text)) {}

FactString::FactString(const FactString& other)
    : m_bits((other.m_bits & k_borrowed) != 0 ? other.m_bits : owned_copy(other.view())) {}

FactString& FactString::operator=(const FactString& other) {
  if (this == &other) return *this;
  const std::uintptr_t bits = (other.m_bits & k_borrowed) != 0 ? other.m_bits : owned_copy(other.view());
  release();
  m_bits = bits;
  return *this;
}

FactString& FactString::operator=(FactString&& other) noexcept {
  if (this == &other) return *this;
  release();
  m_bits = other.m_bits;
  other.m_bits = 0;
  return *this;
}

void FactString::release() {
  if (m_bits != 0 && (m_bits & k_borrowed) == 0) ::operator delete(reinterpret_cast<char*>(m_bits));
  m_bits = 0;
}

std::string operator+(const FactString& a, std::string_view b) {
  std::string out(a.view());
  out += b;
  return out;
}
std::string operator+(std::string_view a, const FactString& b) {
  std::string out(a);
  out += b.view();
  return out;
}
std::string operator+(const FactString& a, const FactString& b) {
  return a + b.view();
}
std::string operator+(const FactString& a, const char* b) {
  return a + std::string_view(b);
}
std::string operator+(const char* a, const FactString& b) {
  return std::string_view(a) + b;
}
std::string operator+(const FactString& a, const std::string& b) {
  return a + std::string_view(b);
}
std::string operator+(const std::string& a, const FactString& b) {
  return std::string_view(a) + b;
}
std::string operator+(const FactString& a, char b) {
  std::string out(a.view());
  out += b;
  return out;
}
std::string operator+(char a, const FactString& b) {
  std::string out(1, a);
  out += b.view();
  return out;
}

std::ostream& operator<<(std::ostream& out, const FactString& text) {
  return out << text.view();
}

char* StringPool::allocate(std::size_t size) {
  size = (size + 3) & ~std::size_t{3};  // entries start 4-aligned (even: the low bit marks a borrow)
  if (size > m_left) {
    const std::size_t grown = m_chunks.empty() ? m_first_chunk
                              : m_chunk != 0   ? m_chunk
                                               : std::clamp(m_bytes / 2, k_min_chunk, k_max_chunk);
    const std::size_t chunk = std::max(grown, size);
    m_chunks.push_back(std::make_unique_for_overwrite<char[]>(chunk));
    m_next = m_chunks.back().get();
    m_left = chunk;
    m_bytes += chunk;
  }
  char* at = m_next;
  m_next += size;
  m_left -= size;
  return at;
}

void StringPool::expect(std::size_t expected) {
  m_first_chunk = std::max(k_min_chunk, expected / 2);
  m_chunk = std::max(k_min_chunk, expected / 16);
}

FactString StringPool::intern(std::string_view text) {
  FactString out;
  if (text.empty()) return out;
  if (const auto found = m_index.find(text); found != m_index.end()) {
    out.m_bits = reinterpret_cast<std::uintptr_t>(found->data() - k_header) | FactString::k_borrowed;
    return out;
  }
  char* at = allocate(k_header + text.size() + 1);
  write_entry(at, text);
  m_index.insert(std::string_view(at + k_header, text.size()));
  out.m_bits = reinterpret_cast<std::uintptr_t>(at) | FactString::k_borrowed;
  return out;
}

void StringPool::seal() {
  std::unordered_set<std::string_view>().swap(m_index);
}

}  // namespace tr2audit
