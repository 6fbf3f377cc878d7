// facts/settings: the scalars of a repo's YAML/JSON config files as SettingFacts (key path, value,
// line), so rules can judge what a recipe config selects (`_target_: apex.optimizers.FusedAdam`,
// `device: cuda`, `precision: 16`). Read through the one bounded YAML loader (JSON is read as YAML) and
// walked with an explicit stack; nothing in a config file is ever evaluated. Files that configure
// other tools (CI, pre-commit, docs sites, conda, containers, Kubernetes) are not a run's settings.
#include <algorithm>
#include <iterator>
#include <tuple>

#include "tr2audit/core/text.hpp"
#include "tr2audit/core/yaml_load.hpp"
#include "tr2audit/facts/facts.hpp"

namespace tr2audit::facts {
namespace {

constexpr std::size_t k_max_depth = 64;
constexpr std::size_t k_max_nodes = 50'000;  ///< nodes visited per file

/// Folders whose YAML/JSON configures a tool, not a training run.
constexpr std::string_view k_tool_dirs[] = {
    ".github",    ".gitlab",   ".gitea",        ".forgejo", ".circleci", ".buildkite", ".azure-pipelines",
    ".lightning", "workflows", ".devcontainer", ".vscode",  ".idea",     ".ci",        "docs",
    "doc",        "charts"};

/// File names (lower case) of other tools' configs; a trailing '*' matches any rest.
constexpr std::string_view k_tool_files[] = {".pre-commit-config.yaml",
                                             ".pre-commit-hooks.yaml",
                                             "mkdocs.yml",
                                             "mkdocs.yaml",
                                             ".readthedocs.y*",
                                             "readthedocs.y*",
                                             "codecov.y*",
                                             ".codecov.y*",
                                             ".gitlab-ci.y*",
                                             ".travis.y*",
                                             "azure-pipelines*",
                                             "docker-compose*",
                                             "compose.y*",
                                             "environment*",
                                             "conda*",
                                             "meta.yaml",
                                             "package.json",
                                             "package-lock.json",
                                             "tsconfig*",
                                             ".markdownlint*",
                                             ".yamllint*",
                                             "dependabot.y*",
                                             "renovate.json",
                                             "_toc.y*",
                                             "gitlab-ci*",
                                             "bitbucket-pipelines*",
                                             ".golangci*"};

bool name_matches(std::string_view pattern, std::string_view name) {
  if (ends_with(pattern, "*")) return starts_with(name, pattern.substr(0, pattern.size() - 1));
  return name == pattern;
}

bool is_tool_config(std::string_view rel_path) {
  if (ends_with(rel_path, ".sh")) return true;  // a launch script: read by the pilot, not YAML
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = rel_path.find('/', start);
    if (slash == std::string_view::npos) break;
    const std::string_view dir = rel_path.substr(start, slash - start);
    if (std::find(std::begin(k_tool_dirs), std::end(k_tool_dirs), dir) != std::end(k_tool_dirs)) return true;
    start = slash + 1;
  }
  const std::string name = to_lower(rel_path.substr(start));
  return std::any_of(std::begin(k_tool_files), std::end(k_tool_files),
                     [&](std::string_view pattern) { return name_matches(pattern, name); });
}

/// A root map shaped like another tool's file: a Kubernetes manifest (`apiVersion` + `kind`), a CI
/// pipeline (`on`/`trigger` with `jobs`/`steps`/`stages`/`pool`/`run`), a conda environment (`channels` +
/// `dependencies`).
bool is_tool_document(const YAML::Node& root) {
  if (!root.IsMap()) return false;
  const auto has = [&](const char* key) { return static_cast<bool>(root[key]); };
  const bool pipeline = has("jobs") || has("steps") || has("stages") || has("pool") || has("run");
  return (has("apiVersion") && has("kind")) || ((has("on") || has("trigger")) && pipeline) ||
         (has("jobs") && has("stages")) || (has("channels") && has("dependencies"));
}

struct Frame {
  YAML::Node node;
  std::size_t depth = 0;
  std::string key;  ///< the key path of this node ("" at the root)
};

std::string joined(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

void add_setting(const std::string& key, const YAML::Node& key_node, const YAML::Node& value,
                 std::vector<SettingFact>& out) {
  if (key.empty() || out.size() >= k_max_settings) return;
  const YAML::Mark mark = key_node.Mark();
  const YAML::Mark at_value = value.Mark();
  if (mark.line < 0) return;
  const auto line = static_cast<std::uint32_t>(mark.line + 1);
  const auto column = static_cast<std::uint32_t>(mark.column + 1);
  std::uint32_t end_column = column;
  if (at_value.line == mark.line && at_value.column >= 0)
    end_column = static_cast<std::uint32_t>(at_value.column + 1) + static_cast<std::uint32_t>(value.Scalar().size());
  out.push_back(SettingFact{FactString(key), FactString(value.Scalar()), Span{line, column, line, end_column, 0, 0}});
}

void walk(const YAML::Node& root, std::vector<SettingFact>& out) {
  std::vector<Frame> stack{{root, 0, ""}};
  std::size_t visited = 0;
  while (!stack.empty() && ++visited < k_max_nodes && out.size() < k_max_settings) {
    const Frame frame = stack.back();
    stack.pop_back();
    if (frame.depth > k_max_depth) continue;
    std::vector<Frame> children;
    if (frame.node.IsSequence()) {
      for (const auto& item : frame.node) {
        if (item.IsScalar()) {
          add_setting(frame.key, item, item, out);
        } else {
          children.push_back(Frame{item, frame.depth + 1, frame.key});
        }
      }
    } else if (frame.node.IsMap()) {
      for (const auto& entry : frame.node) {
        if (!entry.first.IsScalar()) continue;
        const std::string key = joined(frame.key, entry.first.Scalar());
        if (entry.second.IsScalar()) {
          add_setting(key, entry.first, entry.second, out);
        } else if (entry.second.IsMap() || entry.second.IsSequence()) {
          children.push_back(Frame{entry.second, frame.depth + 1, key});
        }
      }
    }
    // Depth first in document order, so settings come out sorted by line within each branch.
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(std::move(*it));
  }
}

}  // namespace

std::vector<SettingFact> extract_settings(std::string_view rel_path, std::string_view text) {
  if (is_tool_config(rel_path)) return {};
  YamlLimits limits;
  limits.max_bytes = 1 << 20;
  limits.max_events = 200'000;
  limits.max_expanded_nodes = 100'000;
  const YamlDocument doc = load_yaml_document(text, limits);
  if (!doc.ok || !doc.root.IsDefined() || is_tool_document(doc.root)) return {};
  std::vector<SettingFact> out;
  try {
    walk(doc.root, out);
  } catch (const YAML::Exception&) {
    // a node yaml-cpp cannot convert: the settings read so far stand
  }
  std::stable_sort(out.begin(), out.end(), [](const SettingFact& a, const SettingFact& b) {
    return std::tie(a.at.line, a.at.column) < std::tie(b.at.line, b.at.column);
  });
  return out;
}

}  // namespace tr2audit::facts
