// core/packed_text: a file's text held compressed between its extraction and its matching. A scan keeps
// every file's text for the snippets of its findings, and the texts are a fifth of a scan's peak memory;
// source code packs to about a third with a byte-oriented LZ77 (the LZ4 block layout: a token with the
// literal and match lengths, the literals, a 2-byte offset). Packing runs once per file on the worker
// that read it; unpacking once per file that has findings. No dependency, no global state.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tr2audit {

class PackedText {
 public:
  PackedText() = default;
  /// The packed form of text (kept as is when packing does not make it smaller).
  static PackedText pack(std::string_view text);
  /// The original text.
  std::string unpack() const;
  std::size_t size() const { return m_size; }  ///< of the original text
  bool empty() const { return m_size == 0; }
  std::size_t packed_bytes() const { return m_bytes.size(); }

 private:
  std::string m_bytes;
  std::size_t m_size = 0;
  bool m_raw = true;  ///< m_bytes is the text itself
};

}  // namespace tr2audit
