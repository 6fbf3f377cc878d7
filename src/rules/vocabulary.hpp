// rules/vocabulary (private): the kebab-case words rule files use for fact enums (guards, device
// uses, import origins, file kinds, regions), in one table each so that loading, matching and docs
// agree.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::rules {

/// A word and the bit (or enum value) it stands for.
template <class T>
using Vocabulary = std::vector<std::pair<std::string_view, T>>;

const Vocabulary<facts::Guard>& guard_vocabulary();            ///< "cuda-available", ... in bit order
const Vocabulary<facts::DeviceUse>& device_use_vocabulary();   ///< "call-argument", ...
const Vocabulary<facts::ImportOrigin>& origin_vocabulary();    ///< "external", ...
const Vocabulary<facts::Region>& region_vocabulary();          ///< "forward", ...
const Vocabulary<discover::FileKind>& file_kind_vocabulary();  ///< "python", "cuda-source", ...

/// The value a word names, or nullopt.
template <class T>
std::optional<T> lookup(const Vocabulary<T>& vocabulary, std::string_view word) {
  for (const auto& [name, value] : vocabulary) {
    if (name == word) return value;
  }
  return std::nullopt;
}

/// The words of a vocabulary, in order.
template <class T>
std::vector<std::string> words(const Vocabulary<T>& vocabulary) {
  std::vector<std::string> out;
  for (const auto& entry : vocabulary) out.emplace_back(entry.first);
  return out;
}

/// The bit of an enum value in a small bit set (1 << value).
template <class T>
constexpr std::uint8_t enum_bit(T value) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(value));
}

}  // namespace tr2audit::rules
