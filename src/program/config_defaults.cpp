// Defaults that come from where a run is configured rather than from a parameter list (program/options reads
// them): the config file a Hydra run composes, a boolean constructor switch every repo class agrees on, and a
// switch bound together with an availability flag.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {

// `@hydra.main(config_path="config", config_name="ppo_trainer")`: the config file a run composes when no
// `--config-name` picks another, read by full key (`actor_rollout_ref.actor.strategy: fsdp`).
HydraDefaults hydra_defaults(const std::vector<facts::FileFacts>& files) {
  std::unordered_map<std::string_view, std::size_t> by_path;
  for (std::size_t f = 0; f < files.size(); ++f) by_path.emplace(files[f].path.view(), f);
  std::unordered_set<std::size_t> defaults;
  for (const auto& file : files) {
    if (file.is_test) continue;
    for (const auto& decorator : file.decorators) {
      if (decorator.decorator.dotted() != "hydra.main") continue;
      std::string folder, name;
      for (const auto& arg : decorator.args) {
        if (arg.kind != facts::LiteralKind::string) continue;
        if (arg.keyword == "config_path") folder = arg.value.str();
        if (arg.keyword == "config_name") name = arg.value.str();
      }
      if (name.empty()) continue;
      const std::string_view own = file.path.view();
      std::string path =
          own.rfind('/') == std::string_view::npos ? std::string() : std::string(own.substr(0, own.rfind('/') + 1));
      while (starts_with(folder, "./")) folder.erase(0, 2);
      if (!folder.empty() && folder != ".") path += folder + "/";
      if (!ends_with(name, ".yaml") && !ends_with(name, ".yml")) name += ".yaml";
      const auto it = by_path.find(path + name);
      if (it != by_path.end()) defaults.insert(it->second);
    }
  }
  HydraDefaults out;
  for (const std::size_t f : defaults) {
    for (const auto& setting : files[f].settings) {
      if (auto value = literal_of(setting.value)) out.emplace_back(setting.key.str(), *value);
    }
  }
  return out;
}

// A Hydra config read (`config.actor_rollout_ref.actor.strategy`, or `self.config.actor.strategy` of a section
// handed on): the value every default config file gives the keys the read's path ends, when it names at least
// two keys and they agree.
std::optional<facts::Argument> hydra_default(const HydraDefaults& defaults, std::string_view read) {
  if (defaults.empty() || ends_with(read, "()")) return std::nullopt;
  if (starts_with(read, "self.")) read.remove_prefix(5);
  const auto dot = read.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view path = read.substr(dot + 1);  // without the config object's own name
  if (path.find('.') == std::string_view::npos) return std::nullopt;
  std::optional<facts::Argument> out;
  for (const auto& [key, value] : defaults) {
    const std::string_view k = key;
    if (!(k == path || (k.size() > path.size() && ends_with(k, path) && k[k.size() - path.size() - 1] == '.')))
      continue;
    if (out && out->value != value.value) return std::nullopt;
    out = value;
  }
  return out;
}

bool typed_param(const facts::FunctionInfo& method, std::string_view param) {
  return std::any_of(method.params.begin(), method.params.end(), [&](const FactString& text) {
    const auto colon = text.find(':');
    return colon != std::string::npos && trim(std::string_view(text).substr(0, colon)) == param;
  });
}

// The default every repo class gives a boolean constructor switch named `attribute` (`def __init__(self,
// self_condition=False): self.self_condition = self_condition`), or nothing when no class takes it, one takes it
// without a boolean default, two disagree, or the repo's code builds one with the other value (`switched_on`:
// constructor_arguments).
ConstructorSwitches::ConstructorSwitches(const std::vector<facts::FileFacts>& files) : m_files(files) {
  for (std::uint32_t f = 0; f < files.size(); ++f) {
    const auto& file = files[f];
    if (file.is_test) continue;
    for (std::uint32_t a = 0; a < file.assigns.size(); ++a) {
      const auto& assign = file.assigns[a];
      if (assign.ctx.function < 0 || assign.value.kind != facts::LiteralKind::name) continue;
      const std::string_view target = assign.target_text.view();
      if (!starts_with(target, "self.") || target.substr(5) != assign.value.value.view()) continue;
      m_binds[std::string(target.substr(5))].push_back({f, a});
    }
  }
}

std::optional<facts::Argument> ConstructorSwitches::find(const std::unordered_set<std::string>& switched_on,
                                                         const std::string& attribute) const {
  std::optional<facts::Argument> out;
  const auto binds = m_binds.find(attribute);
  if (binds == m_binds.end()) return out;
  for (const auto& [f, a] : binds->second) {
    const auto& file = m_files[f];
    const auto& assign = file.assigns[a];
    const auto& method = file.functions[static_cast<std::size_t>(assign.ctx.function)];
    if (method.klass < 0 || method.name != "__init__") continue;
    const auto param = std::find_if(method.param_defaults.begin(), method.param_defaults.end(),
                                    [&](const facts::Argument& p) { return p.keyword == attribute; });
    if (param == method.param_defaults.end() || param->kind != facts::LiteralKind::boolean) return std::nullopt;
    const std::string cls = file.classes[static_cast<std::size_t>(method.klass)].name.str();
    const std::string other = param->value == "False" ? "True" : "False";
    const std::optional<std::size_t> position = positional_index(method, attribute);
    if (switched_on.count(cls + "." + attribute + "=" + other) ||
        (position && switched_on.count(cls + ".#" + std::to_string(*position) + "=" + other)))
      return std::nullopt;
    if (out && out->value != param->value) return std::nullopt;
    out = *param;
  }
  return out;
}

// `self.use_flash_attn = config.use_flash_attn and has_flash_attn` before `if self.use_flash_attn:`: a switch that
// holds only where an availability flag does (one of `flags`, set in a try/except ImportError, or named like one).
bool bound_with_flag(const facts::FileFacts& file, const FactString& name,
                     const std::unordered_set<std::string>& flags) {
  for (const auto& assign : file.assigns) {
    if (assign.target_text != name) continue;
    std::string_view rest = assign.value.value.view();
    if (rest.find(" or ") != std::string_view::npos) continue;
    for (;;) {
      const auto cut = rest.find(" and ");
      std::string_view part = trim(rest.substr(0, cut));
      while (part.size() >= 2 && part.front() == '(' && part.back() == ')')
        part = trim(part.substr(1, part.size() - 2));
      if (!part.empty() && part.find_first_of(" ()[]") == std::string_view::npos &&
          (flags.count(last_segment(part)) || named_like_flag(last_segment(part))))
        return true;
      if (cut == std::string_view::npos) break;
      rest = rest.substr(cut + 5);
    }
  }
  return false;
}

}  // namespace tr2audit::program::option_values
