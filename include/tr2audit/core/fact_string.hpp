// core/fact_string: the string type of facts. A scan holds every file's facts until matching, and
// those facts are millions of short names ("item", "torch.cuda.synchronize", "self.model"), most of
// them repeated within a file; a std::string is 32 bytes before its text. A FactString is one
// pointer (8 bytes) to a length-prefixed text that is either its own heap block (owned, deep-copied)
// or an entry of a StringPool (borrowed: copies share it, the pool must outlive them). A file's facts
// borrow from the pool their FileFacts holds; the files one extraction worker reads share a pool, which
// interns each distinct text once for all of them.
#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace tr2audit {

class StringPool;

/// An immutable string in 8 bytes: empty, owned or borrowed from a StringPool. Reads like a
/// std::string_view (and converts to one, or to a std::string).
class FactString {
 public:
  using size_type = std::size_t;
  static constexpr size_type npos = std::string_view::npos;

  FactString() = default;
  /// Implicit from a literal (tests, fixed values): an owned copy.
  FactString(const char* text) : FactString(std::string_view(text)) {}
  /// An owned copy; a fact built in bulk takes its strings from its file's StringPool instead.
  explicit FactString(std::string_view text);
  explicit FactString(const std::string& text) : FactString(std::string_view(text)) {}
  FactString(const FactString& other);
  FactString(FactString&& other) noexcept : m_bits(other.m_bits) { other.m_bits = 0; }
  FactString& operator=(const FactString& other);
  FactString& operator=(FactString&& other) noexcept;
  ~FactString() { release(); }

  std::string_view view() const { return m_bits == 0 ? std::string_view() : std::string_view(chars(), length()); }
  operator std::string_view() const { return view(); }
  operator std::string() const { return std::string(view()); }
  std::string str() const { return std::string(view()); }

  size_type size() const { return m_bits == 0 ? 0 : length(); }
  /// Borrowed from a StringPool (its text is counted in the pool's bytes, not here).
  bool pooled() const { return (m_bits & k_borrowed) != 0; }
  bool empty() const { return m_bits == 0; }
  const char* data() const { return m_bits == 0 ? "" : chars(); }
  const char* c_str() const { return data(); }
  char operator[](size_type i) const { return chars()[i]; }
  char front() const { return chars()[0]; }
  char back() const { return chars()[length() - 1]; }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }

  size_type find(std::string_view s, size_type pos = 0) const { return view().find(s, pos); }
  size_type find(char c, size_type pos = 0) const { return view().find(c, pos); }
  size_type rfind(std::string_view s, size_type pos = npos) const { return view().rfind(s, pos); }
  size_type rfind(char c, size_type pos = npos) const { return view().rfind(c, pos); }
  size_type find_first_of(std::string_view s, size_type pos = 0) const { return view().find_first_of(s, pos); }
  size_type find_last_of(std::string_view s, size_type pos = npos) const { return view().find_last_of(s, pos); }
  size_type find_first_not_of(std::string_view s, size_type pos = 0) const { return view().find_first_not_of(s, pos); }
  std::string_view substr(size_type pos = 0, size_type count = npos) const { return view().substr(pos, count); }
  bool starts_with(std::string_view s) const { return view().starts_with(s); }
  bool starts_with(char c) const { return view().starts_with(c); }
  bool ends_with(std::string_view s) const { return view().ends_with(s); }
  bool ends_with(char c) const { return view().ends_with(c); }
  int compare(std::string_view s) const { return view().compare(s); }

  friend bool operator==(const FactString& a, const FactString& b) { return a.view() == b.view(); }
  friend bool operator==(const FactString& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const FactString& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const FactString& a, const char* b) { return a.view() == b; }
  friend std::strong_ordering operator<=>(const FactString& a, const FactString& b) { return a.view() <=> b.view(); }
  friend std::strong_ordering operator<=>(const FactString& a, std::string_view b) { return a.view() <=> b; }
  friend std::strong_ordering operator<=>(const FactString& a, const std::string& b) {
    return a.view() <=> std::string_view(b);
  }
  friend std::strong_ordering operator<=>(const FactString& a, const char* b) {
    return a.view() <=> std::string_view(b);
  }

 private:
  friend class StringPool;
  static constexpr std::uintptr_t k_borrowed = 1;
  // An entry is a 4-byte length, the bytes and a NUL; m_bits is its address, plus k_borrowed when
  // it lies in a pool. 0 is the empty string (no entry).
  const char* entry() const { return reinterpret_cast<const char*>(m_bits & ~k_borrowed); }
  const char* chars() const { return entry() + sizeof(std::uint32_t); }
  std::uint32_t length() const {
    std::uint32_t length = 0;
    std::memcpy(&length, entry(), sizeof length);
    return length;
  }
  void release();

  std::uintptr_t m_bits = 0;
};

std::string operator+(const FactString& a, std::string_view b);
std::string operator+(std::string_view a, const FactString& b);
std::string operator+(const FactString& a, const FactString& b);
std::string operator+(const FactString& a, const char* b);
std::string operator+(const char* a, const FactString& b);
std::string operator+(const FactString& a, const std::string& b);
std::string operator+(const std::string& a, const FactString& b);
std::string operator+(const FactString& a, char b);
std::string operator+(char a, const FactString& b);
std::ostream& operator<<(std::ostream& out, const FactString& text);

/// An arena of interned, length-prefixed texts: one per extraction worker (its files' facts share it) or
/// per cached file read back. Entries never move (chunks are separate blocks), so the pool itself may be
/// moved while FactStrings borrow from it. Not thread-safe: one worker's extractions (or one cache read)
/// fill it, then it is only read.
class StringPool {
 public:
  StringPool() = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) = default;
  StringPool& operator=(StringPool&&) = default;

  /// Sizes the chunks for about `expected` bytes of entries (a file's extraction takes about 0.6 bytes per
  /// byte of source): the first chunk holds half of it, each later one a sixteenth, so the unused end of
  /// the last chunk stays small. Without a hint chunks start at 1 KB and grow to 16 KB.
  void expect(std::size_t expected);
  /// The pool's copy of text (the same entry for equal texts until seal()).
  FactString intern(std::string_view text);
  /// Drops the index that finds equal texts (later interns still work, but copy): call when no more
  /// facts will be added.
  void seal();
  /// Bytes held by the chunks.
  std::size_t bytes() const { return m_bytes; }
  /// Bytes the entries take (bytes() less the unused end of the last chunk).
  std::size_t used() const { return m_bytes - m_left; }

 private:
  char* allocate(std::size_t size);

  std::vector<std::unique_ptr<char[]>> m_chunks;
  char* m_next = nullptr;
  std::size_t m_left = 0;
  std::size_t m_bytes = 0;
  std::size_t m_first_chunk = 1024;
  std::size_t m_chunk = 0;                       ///< later chunks; 0: grow with the pool
  std::unordered_set<std::string_view> m_index;  ///< views of the entries' texts
};

}  // namespace tr2audit

template <>
struct std::hash<tr2audit::FactString> {
  std::size_t operator()(const tr2audit::FactString& text) const noexcept {
    return std::hash<std::string_view>()(text.view());
  }
};
