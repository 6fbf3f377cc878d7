#include "tr2audit/core/packed_text.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace tr2audit {
namespace {

constexpr std::size_t k_min_match = 4;
constexpr std::size_t k_max_offset = 65535;
constexpr unsigned k_hash_bits = 14;

std::uint32_t read32(const char* at) {
  std::uint32_t v = 0;
  std::memcpy(&v, at, sizeof v);
  return v;
}

std::uint32_t hash4(std::uint32_t v) {
  return (v * 2654435761u) >> (32 - k_hash_bits);
}

// A length beyond a token's nibble: 15 in the nibble, then bytes of 255 and one below 255.
void put_length(std::string& out, std::size_t rest) {
  while (rest >= 255) {
    out.push_back(static_cast<char>(255));
    rest -= 255;
  }
  out.push_back(static_cast<char>(rest));
}

void put_sequence(std::string& out, std::string_view literals, std::size_t offset, std::size_t match) {
  const std::size_t lit = literals.size();
  const std::size_t extra = match == 0 ? 0 : match - k_min_match;
  out.push_back(static_cast<char>(((lit < 15 ? lit : 15) << 4) | (extra < 15 ? extra : 15)));
  if (lit >= 15) put_length(out, lit - 15);
  out.append(literals);
  if (match == 0) return;  // the last sequence: literals only
  out.push_back(static_cast<char>(offset & 0xff));
  out.push_back(static_cast<char>(offset >> 8));
  if (extra >= 15) put_length(out, extra - 15);
}

[[noreturn]] void corrupt() {
  throw std::logic_error("core/packed_text: damaged packed text");
}

}  // namespace

PackedText PackedText::pack(std::string_view text) {
  PackedText out;
  out.m_size = text.size();
  std::string packed;
  packed.reserve(text.size() / 2 + 16);
  std::vector<std::uint32_t> last(std::size_t{1} << k_hash_bits, 0);  // position + 1 of a 4-byte run
  const char* data = text.data();
  const std::size_t n = text.size();
  std::size_t anchor = 0;
  std::size_t i = 0;
  while (i + k_min_match <= n) {
    const std::uint32_t word = read32(data + i);
    std::uint32_t& slot = last[hash4(word)];
    const std::size_t candidate = slot;  // position + 1, 0 when none
    slot = static_cast<std::uint32_t>(i + 1);
    if (candidate == 0 || i + 1 - candidate > k_max_offset || read32(data + candidate - 1) != word) {
      ++i;
      continue;
    }
    const std::size_t from = candidate - 1;
    std::size_t length = k_min_match;
    while (i + length < n && data[from + length] == data[i + length]) ++length;
    put_sequence(packed, text.substr(anchor, i - anchor), i - from, length);
    i += length;
    anchor = i;
    if (packed.size() >= n) break;  // not worth it: keep the text as is
  }
  if (packed.size() < n) put_sequence(packed, text.substr(anchor), 0, 0);
  if (packed.size() >= n) {
    out.m_bytes = std::string(text);
    out.m_raw = true;
  } else {
    packed.shrink_to_fit();
    out.m_bytes = std::move(packed);
    out.m_raw = false;
  }
  return out;
}

std::string PackedText::unpack() const {
  if (m_raw) return m_bytes;
  std::string out;
  out.reserve(m_size);
  const std::string_view in = m_bytes;
  std::size_t i = 0;
  const auto length = [&](std::size_t nibble) {
    std::size_t value = nibble;
    if (nibble != 15) return value;
    for (;;) {
      if (i >= in.size()) corrupt();
      const auto byte = static_cast<unsigned char>(in[i++]);
      value += byte;
      if (byte != 255) return value;
    }
  };
  while (i < in.size()) {
    const auto token = static_cast<unsigned char>(in[i++]);
    const std::size_t lit = length(token >> 4);
    if (lit > in.size() - i) corrupt();
    out.append(in.substr(i, lit));
    i += lit;
    if (i == in.size()) break;  // the last sequence has no match
    if (in.size() - i < 2) corrupt();
    const std::size_t offset =
        static_cast<unsigned char>(in[i]) | (static_cast<std::size_t>(static_cast<unsigned char>(in[i + 1])) << 8);
    i += 2;
    const std::size_t match = length(token & 15) + k_min_match;
    if (offset == 0 || offset > out.size() || match > m_size - out.size()) corrupt();
    const std::size_t from = out.size() - offset;
    for (std::size_t k = 0; k < match; ++k) out.push_back(out[from + k]);  // may overlap what it writes
  }
  if (out.size() != m_size) corrupt();
  return out;
}

}  // namespace tr2audit
