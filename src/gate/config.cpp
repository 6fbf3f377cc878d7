#include "tr2audit/gate/config.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config_raw.hpp"
#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/gate/fail_on.hpp"

namespace tr2audit::gate {
namespace {

namespace fs = std::filesystem;

struct Applier {
  const fs::path& file;
  std::string shown;
  Settings& settings;
  std::vector<Problem>& problems;

  void problem(std::uint32_t line, std::uint32_t column, const std::string& message) {
    problems.push_back(Problem{ProblemKind::invalid_config, shown, line, column, message});
  }
  Origin origin(const RawEntry& e) const { return Origin{shown, e.line, ""}; }

  bool scalar(const RawEntry& e, std::string& out) {
    if (e.value.kind != RawNode::Kind::scalar) {
      problem(e.value.line, e.value.column, "'" + e.key + "' takes a single value");
      return false;
    }
    out = e.value.scalar;
    return true;
  }
  bool strings(const RawEntry& e, std::vector<std::string>& out) {
    if (e.value.kind == RawNode::Kind::scalar) {
      out = {e.value.scalar};
      return true;
    }
    if (e.value.kind == RawNode::Kind::list) {
      out.clear();
      for (const RawNode& item : e.value.items) {
        if (item.kind != RawNode::Kind::scalar) {
          problem(item.line, item.column, "'" + e.key + "' takes a list of strings");
          return false;
        }
        out.push_back(item.scalar);
      }
      return true;
    }
    problem(e.value.line, e.value.column, "'" + e.key + "' takes a string or a list of strings");
    return false;
  }
  bool number(const RawEntry& e, std::uint64_t max, std::uint64_t& out) {
    std::string text;
    if (!scalar(e, text)) return false;
    std::string digits;
    std::uint64_t unit = 1;
    for (char c : text) {
      if (c == '_') continue;
      if (c >= '0' && c <= '9' && unit == 1)
        digits.push_back(c);
      else if (e.key == "max-file-size" && unit == 1 && (c == 'K' || c == 'k'))
        unit = 1024;
      else if (e.key == "max-file-size" && unit == 1 && (c == 'M' || c == 'm'))
        unit = 1024 * 1024;
      else if (e.key == "max-file-size" && unit > 1 && (c == 'i' || c == 'B'))
        continue;
      else
        digits = "x";
    }
    if (digits.empty() || digits.find('x') != std::string::npos || digits.size() > 15 ||
        std::stoull(digits) * unit > max) {
      problem(e.value.line, e.value.column,
              "'" + e.key + "' takes a whole number" + (max < 1000 ? " from 0 to " + std::to_string(max) : "") +
                  (e.key == "max-file-size" ? " of bytes (suffix K or M allowed)" : ""));
      return false;
    }
    out = std::stoull(digits) * unit;
    return true;
  }

  void apply_target(const RawEntry& e) {
    std::string text;
    if (!scalar(e, text)) return;
    if (!parse_target_profile(text)) {
      const std::string hint = suggest(text, {"native", "xla"});
      return problem(e.value.line, e.value.column,
                     "unknown target '" + text + "' (expected native or xla)" +
                         (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    settings.target = {text, origin(e)};
  }
  void apply_fail_on(const RawEntry& e) {
    std::vector<std::string> values;
    if (!strings(e, values)) return;
    FailOn check;
    for (const auto& value : values) {
      std::string error;
      if (!add_fail_on(check, value, error)) return problem(e.value.line, e.value.column, error.substr(2));
    }
    settings.fail_on = {values, origin(e)};
  }
  void apply_severity(const RawEntry& e) {
    if (e.value.kind != RawNode::Kind::map)
      return problem(e.value.line, e.value.column, "'severity' maps rule ids (or globs) to a severity");
    std::map<std::string, std::string> overrides;
    for (const RawEntry& item : e.value.entries) {
      std::string name;
      if (!scalar(item, name)) return;
      if (!parse_severity(name)) {
        const std::string hint = suggest(name, {"blocker", "high", "medium", "low", "info"});
        return problem(item.value.line, item.value.column,
                       "unknown severity '" + name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      }
      overrides[item.key] = name;
    }
    settings.severity = {overrides, origin(e)};
  }
  void apply_list(const RawEntry& e, Setting<std::vector<std::string>>& setting, bool paths) {
    std::vector<std::string> values;
    if (!strings(e, values)) return;
    if (paths) {
      for (auto& value : values) {
        if (fs::path(value).is_relative()) value = (file.parent_path() / value).lexically_normal().generic_string();
        if (!inside_config_folder(value))  // a repo's own config must not point the loaders outside it
          return problem(e.value.line, e.value.column,
                         "rule folder '" + value + "' is outside the folder of the config file (give --rules DIR)");
      }
    }
    setting = {values, origin(e)};
  }

  bool inside_config_folder(const std::string& path) const {
    std::error_code ec;
    const std::string folder = fs::weakly_canonical(fs::absolute(file.parent_path(), ec), ec).generic_string();
    const std::string target = fs::weakly_canonical(fs::absolute(path, ec), ec).generic_string();
    return !ec && (target == folder || target.rfind(folder + (folder.ends_with('/') ? "" : "/"), 0) == 0);
  }

  void apply(const RawEntry& e) {
    std::uint64_t n = 0;
    if (e.key == "target") return apply_target(e);
    if (e.key == "exclude") return apply_list(e, settings.exclude, false);
    if (e.key == "rules") return apply_list(e, settings.rules, true);
    if (e.key == "enable") return apply_list(e, settings.enable, false);
    if (e.key == "disable") return apply_list(e, settings.disable, false);
    if (e.key == "severity") return apply_severity(e);
    if (e.key == "fail-on") return apply_fail_on(e);
    if (e.key == "min-readiness" && number(e, 100, n))
      settings.min_readiness = {static_cast<std::uint32_t>(n), origin(e)};
    if (e.key == "max-file-size" && number(e, 1ull << 40, n)) settings.max_file_size = {n, origin(e)};
    if (e.key == "jobs" && number(e, 1024, n)) settings.jobs = {static_cast<unsigned>(n), origin(e)};
    if (e.key == "fail-on-problems") {
      std::string text;
      if (!scalar(e, text)) return;
      if (text != "true" && text != "false")
        return problem(e.value.line, e.value.column, "'fail-on-problems' takes true or false");
      settings.fail_on_problems = {text == "true", origin(e)};
    }
  }
};

/// A config file's text; nullopt when unreadable or over 1 MiB (a config is never that big).
std::optional<std::string> read_text(const fs::path& file) {
  std::error_code ec;
  if (fs::file_size(file, ec) > (1u << 20) || ec) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::string Origin::describe() const {
  std::string out;
  if (!file.empty()) out = file + ":" + std::to_string(line);
  if (!flag.empty()) out += (out.empty() ? "" : " + ") + std::string("flag ") + flag;
  return out.empty() ? "default" : out;
}

const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> k_keys{"target",           "exclude",       "rules",   "enable",
                                               "disable",          "severity",      "fail-on", "min-readiness",
                                               "fail-on-problems", "max-file-size", "jobs"};
  return k_keys;
}

std::optional<fs::path> find_config(const fs::path& scan_root) {
  std::error_code ec;
  fs::path folder = fs::absolute(scan_root, ec).lexically_normal();
  if (!fs::is_directory(folder, ec)) folder = folder.parent_path();
  for (;; folder = folder.parent_path()) {
    for (const char* name : {".tr2audit.yaml", ".tr2audit.yml"}) {
      if (fs::is_regular_file(folder / name, ec)) return folder / name;
    }
    if (fs::is_regular_file(folder / "pyproject.toml", ec)) {
      const auto text = read_text(folder / "pyproject.toml");
      if (text && has_tool_table(*text)) return folder / "pyproject.toml";
    }
    if (fs::exists(folder / ".git", ec) || folder == folder.parent_path()) return std::nullopt;
  }
}

void load_config(const fs::path& file, Settings& settings, std::vector<Problem>& problems) {
  const std::string shown = file.generic_string();
  const auto text = read_text(file);
  if (!text) {
    problems.push_back(Problem{ProblemKind::invalid_config, shown, 0, 0, "cannot read the config file"});
    return;
  }
  const bool toml = file.extension() == ".toml";
  std::optional<RawNode> root =
      toml ? read_toml_config(*text, shown, problems) : read_yaml_config(*text, shown, problems);
  if (!root) {
    if (toml && problems.empty())
      problems.push_back(Problem{ProblemKind::invalid_config, shown, 0, 0, "no [tool.tr2audit] table"});
    return;
  }
  settings.config_file = shown;
  Applier applier{file, shown, settings, problems};
  for (const RawEntry& entry : root->entries) {
    const auto& keys = config_keys();
    if (std::find(keys.begin(), keys.end(), entry.key) == keys.end()) {
      const std::string hint = suggest(entry.key, keys);
      applier.problem(entry.line, entry.column,
                      "unknown setting '" + entry.key + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
      continue;
    }
    applier.apply(entry);
  }
}

rules::RuleSet configure_rules(const rules::RuleSet& rules, const Settings& settings, std::vector<Problem>& problems) {
  std::vector<std::string> ids;
  for (const auto& rule : rules.rules()) ids.push_back(rule.id);
  const auto check = [&](const std::string& pattern, const Origin& origin, const std::string& key) {
    if (std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return glob_match(pattern, id); })) return;
    const std::string hint = suggest(pattern, ids);
    problems.push_back(
        Problem{ProblemKind::invalid_config, origin.file.empty() ? origin.flag : origin.file, origin.line, 0,
                key + ": '" + pattern + "' matches no rule" + (hint.empty() ? "" : "; did you mean '" + hint + "'?")});
  };
  for (const auto& p : settings.enable.value) check(p, settings.enable.origin, "enable");
  for (const auto& p : settings.disable.value) check(p, settings.disable.origin, "disable");
  for (const auto& [p, s] : settings.severity.value) check(p, settings.severity.origin, "severity");
  const auto matches_any = [](const std::vector<std::string>& patterns, const std::string& id) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return glob_match(p, id); });
  };
  std::vector<rules::Rule> kept;
  for (rules::Rule rule : rules.rules()) {
    if (!settings.enable.value.empty() && !matches_any(settings.enable.value, rule.id)) continue;
    if (matches_any(settings.disable.value, rule.id)) continue;
    auto exact = settings.severity.value.find(rule.id);
    for (auto it = settings.severity.value.begin();
         exact == settings.severity.value.end() && it != settings.severity.value.end(); ++it) {
      if (glob_match(it->first, rule.id)) exact = it;
    }
    if (exact != settings.severity.value.end()) {
      rule.severity = *parse_severity(exact->second);
      rule.severity_by_profile.fill(std::nullopt);
    }
    kept.push_back(std::move(rule));
  }
  return rules::RuleSet(std::move(kept));
}

}  // namespace tr2audit::gate
