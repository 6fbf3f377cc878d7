// gate (private): a config file as a small tree of scalars, lists and maps with positions, so YAML
// and pyproject TOML are validated by the same code (config.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/problem.hpp"

namespace tr2audit::gate {

struct RawEntry;

struct RawNode {
  enum class Kind { scalar, list, map };
  Kind kind = Kind::scalar;
  std::string scalar;
  bool quoted = false;            ///< a TOML/YAML string (not a number or bool)
  std::vector<RawNode> items;     ///< list
  std::vector<RawEntry> entries;  ///< map, in file order
  std::uint32_t line = 0;         ///< 1-based
  std::uint32_t column = 0;
};

struct RawEntry {
  std::string key;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  RawNode value;
};

/// The top-level mapping of a YAML config (an empty document is an empty map).
std::optional<RawNode> read_yaml_config(std::string_view text, const std::string& path, std::vector<Problem>& problems);

/// The [tool.tr2audit] table of a pyproject.toml (sub-tables become map entries); nullopt when absent
/// or unreadable (then problems say why).
std::optional<RawNode> read_toml_config(std::string_view text, const std::string& path, std::vector<Problem>& problems);

/// True when a pyproject.toml text has a [tool.tr2audit] table (or sub-table) header.
bool has_tool_table(std::string_view toml_text);

}  // namespace tr2audit::gate
