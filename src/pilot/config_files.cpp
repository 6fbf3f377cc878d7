// pilot/config_files: the keys of a repo's YAML/JSON config files that the pilot request asks for
// (max_seq_len: 2048, gradient_accumulation_steps: 8, ...). Read through the project's one bounded
// YAML loader (JSON is read as YAML); walked with an explicit stack; nothing in them is executed.
#include <algorithm>
#include <cctype>

#include "pilot/settings.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::pilot::detail {
namespace {

constexpr std::size_t k_max_nodes = 20'000;  ///< map entries visited per file
constexpr std::size_t k_max_depth = 64;

facts::LiteralKind kind_of(const std::string& value) {
  if (value.empty()) return facts::LiteralKind::string;
  const std::string lower = to_lower(value);
  if (lower == "true" || lower == "false") return facts::LiteralKind::boolean;
  if (lower == "null" || lower == "~" || lower == "none") return facts::LiteralKind::null;
  const bool digits = std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit((unsigned char)c); });
  if (digits) return facts::LiteralKind::integer;
  const bool number = std::all_of(value.begin(), value.end(), [](char c) {
    return std::isdigit((unsigned char)c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
  });
  return number && std::isdigit((unsigned char)value.front()) ? facts::LiteralKind::floating
                                                              : facts::LiteralKind::string;
}

bool known(const std::vector<std::string_view>& keys, const std::string& key);

struct Frame {
  YAML::Node node;
  std::size_t depth = 0;
  std::string key;  ///< the key this node is the value of ("" at the root and in lists of the root)
};

/// `model: {name: x}` / `model: {_component_: x}` name the model: key "model_name".
std::string config_key(const std::string& parent, std::string key) {
  if (parent == "model" && (key == "name" || key == "_component_" || key == "path" || key == "name_or_path"))
    return "model_name";
  return key;
}

void walk_config(const YAML::Node& root, const std::string& path, const std::vector<std::string_view>& known_keys,
                 std::vector<Setting>& out) {
  std::vector<Frame> stack{{root, 0, ""}};
  std::size_t visited = 0;
  while (!stack.empty() && visited < k_max_nodes) {
    const auto [node, depth, node_key] = stack.back();
    stack.pop_back();
    if (depth > k_max_depth) continue;
    if (node.IsSequence()) {
      for (std::size_t i = node.size(); i-- > 0;) stack.push_back(Frame{node[i], depth + 1, node_key});
      continue;
    }
    if (!node.IsMap()) continue;
    std::vector<Frame> children;
    for (const auto& entry : node) {
      ++visited;
      if (!entry.first.IsScalar()) continue;
      const std::string key = config_key(node_key, to_lower(entry.first.Scalar()));
      if (entry.second.IsScalar() && known(known_keys, key)) {
        const std::string value = entry.second.Scalar();
        const int line = entry.first.Mark().line;
        out.push_back(Setting{key, value, kind_of(value), Source::config_file, path,
                              path + ":" + std::to_string(line < 0 ? 0 : line + 1)});
      }
      if (entry.second.IsMap() || entry.second.IsSequence())
        children.push_back(Frame{entry.second, depth + 1, to_lower(entry.first.Scalar())});
    }
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
}

bool known(const std::vector<std::string_view>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// `python train.py --max_seq_len 2048 --bf16 \` in a launch script: `--key value`, `--key=value`, and
/// a bare `--flag` (true). One physical line at a time, so each value keeps its own line.
void read_launch_flags(const ConfigText& config, const std::vector<std::string_view>& known_keys,
                       std::vector<Setting>& out) {
  std::uint32_t line_number = 0;
  for (std::string_view line : split(config.text, '\n')) {
    ++line_number;
    std::vector<std::string_view> words;
    for (std::string_view word : split(trim(line), ' ')) {
      if (!trim(word).empty()) words.push_back(trim(word));
    }
    if (!words.empty() && starts_with(words.front(), "#")) continue;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (!starts_with(words[i], "--") || words[i].size() < 3) continue;
      std::string_view flag = words[i].substr(2), value;
      if (const auto eq = flag.find('='); eq != std::string_view::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
      } else if (i + 1 < words.size() && !starts_with(words[i + 1], "-") && words[i + 1] != "\\") {
        value = words[i + 1];
      } else {
        value = "True";
      }
      std::string key = to_lower(flag);
      std::replace(key.begin(), key.end(), '-', '_');
      if (!known(known_keys, key)) continue;
      const std::string text(value.size() >= 2 && (value.front() == '"' || value.front() == '\'')
                                 ? value.substr(1, value.size() - 2)
                                 : value);
      out.push_back(Setting{key, text, kind_of(text), Source::config_file, config.path,
                            config.path + ":" + std::to_string(line_number)});
    }
  }
}

}  // namespace

void read_config(const ConfigText& config, const std::vector<std::string_view>& known_keys, std::vector<Setting>& out) {
  if (ends_with(config.path, ".sh")) {
    read_launch_flags(config, known_keys, out);
    return;
  }
  rules::YamlLimits limits;
  limits.max_bytes = discover::k_max_config_bytes;
  limits.max_events = 200'000;
  limits.max_expanded_nodes = 100'000;
  const rules::YamlDocument doc = rules::load_yaml_document(config.text, limits);
  if (!doc.ok || !doc.root.IsDefined()) return;  // not YAML (a template, a data file): nothing to read
  try {
    walk_config(doc.root, config.path, known_keys, out);
  } catch (const YAML::Exception&) {
    // a node yaml-cpp cannot convert: the settings read so far stand
  }
}
}  // namespace tr2audit::pilot::detail
