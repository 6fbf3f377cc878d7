// facts/facts_binary: FileFacts as compact bytes (varints, length-prefixed strings), so the result
// cache (pipeline/fact_cache) can keep one file's facts between scans. Reading checks every length,
// enum value and index: bytes that did not come from to_bytes give nullopt, never a crash.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {

/// Bump when the encoding (or FileFacts) changes: it is part of every cache key.
inline constexpr std::uint32_t k_facts_binary_version = 63;

/// Every field of the facts, in a fixed order.
std::string to_bytes(const FileFacts& file);

/// The facts to_bytes wrote; nullopt when the bytes are truncated, malformed or inconsistent
/// (a context index past its table, an unknown enum value, trailing bytes).
std::optional<FileFacts> from_bytes(std::string_view bytes);

}  // namespace tr2audit::facts
