// facts/dependencies_conda: the packages a conda environment file (`environment.yml`) installs, as
// dependency facts: the conda packages of `dependencies:` (section "conda") and the pip requirements of
// its nested `- pip:` list (section "conda-pip"), each at its own line. Read through the one bounded YAML
// loader; only those two lists are visited (no recursion: the shape is fixed), nothing is ever run.
#include "dependencies_internal.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/core/yaml_load.hpp"

namespace tr2audit::facts {
namespace {

constexpr std::size_t k_max_packages = 10'000;

/// The package a conda match spec names: `pytorch-cuda=11.7` -> "pytorch-cuda", `python >= 3.8` ->
/// "python", `conda-forge::numpy` / `nvidia/label/cuda-12.1.0::cuda-toolkit` -> the name after the channel.
std::string_view conda_package(std::string_view spec) {
  spec = trim(spec);
  if (const auto channel = spec.rfind("::"); channel != std::string_view::npos) spec = spec.substr(channel + 2);
  std::size_t end = 0;
  while (end < spec.size() && std::string_view(" \t=<>!~[;,").find(spec[end]) == std::string_view::npos) ++end;
  return spec.substr(0, end);
}

std::uint32_t line_of(const YAML::Node& node) {
  return static_cast<std::uint32_t>(node.Mark().line + 1);
}

}  // namespace

bool looks_like_conda_environment(std::string_view text) {
  bool channels = false, dependencies = false;
  for_each_line(text, [&](std::string_view line, std::uint32_t) {
    channels = channels || starts_with(line, "channels:");
    dependencies = dependencies || starts_with(line, "dependencies:");
  });
  return channels && dependencies;
}

std::vector<DependencyFact> read_conda_environment(std::string_view text) {
  std::vector<DependencyFact> out;
  const YamlDocument document = load_yaml_document(text);
  if (!document.ok || !document.root.IsMap()) return out;
  const YAML::Node packages = document.root["dependencies"];
  if (!packages || !packages.IsSequence()) return out;
  for (const YAML::Node& item : packages) {
    if (out.size() >= k_max_packages) break;
    if (item.IsScalar()) {
      const std::string spec = item.Scalar();
      const std::string_view name = conda_package(spec);
      if (name.empty() || name.front() == '_') continue;  // `_libgcc_mutex`: conda's own plumbing
      if (auto fact = make_dependency(name, "conda", line_of(item))) {
        fact->spec = FactString(std::string(trim(spec)));
        out.push_back(std::move(*fact));
      }
    } else if (item.IsMap() && item["pip"] && item["pip"].IsSequence()) {
      for (const YAML::Node& requirement : item["pip"]) {
        if (out.size() >= k_max_packages) break;
        if (!requirement.IsScalar()) continue;
        if (auto fact = make_dependency(requirement.Scalar(), "conda-pip", line_of(requirement)))
          out.push_back(std::move(*fact));
      }
    }
  }
  return out;
}

}  // namespace tr2audit::facts
