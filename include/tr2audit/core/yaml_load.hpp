// core/yaml_load: the one way tr2audit turns YAML text (rules, config, op table, scoring) into a
// yaml-cpp node. Bounds size, document count and the node count once aliases are expanded, and
// never calls YAML::LoadAll (it loops forever on a stray top-level ',' in yaml-cpp 0.7.0, #1040).
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tr2audit {

struct YamlLimits {
  std::size_t max_bytes = std::size_t{8} << 20;  ///< larger files are refused unread
  std::size_t max_events = 2'000'000;            ///< parser events (scalars, collections) per file
  std::size_t max_expanded_nodes = 1'000'000;    ///< nodes visited with every alias expanded
};

/// The one document of a YAML file, or why it was refused (line/column 1-based, 0 = unknown).
struct YamlDocument {
  YAML::Node root;  ///< Null for an empty file
  bool ok = false;
  std::uint32_t line = 0, column = 0;
  std::string error;
};

/// Parses exactly one YAML document within `limits`; returns in time linear in the text's size.
YamlDocument load_yaml_document(std::string_view text, const YamlLimits& limits = {});

/// Number of nodes reachable from root with aliases expanded, stopping once it passes `budget`.
std::size_t expanded_node_count(const YAML::Node& root, std::size_t budget);

}  // namespace tr2audit
