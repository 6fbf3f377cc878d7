#include "score/policy_reader.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "tr2audit/core/text.hpp"

namespace tr2audit::score::detail {
namespace {

std::string quoted(const std::string& text) {
  return "'" + text + "'";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

}  // namespace

void PolicyReader::error(const YAML::Node& node, const std::string& message) {
  const YAML::Mark mark = node.Mark();
  const bool known = !mark.is_null() && mark.line >= 0;
  m_problems.push_back(Problem{ProblemKind::invalid_config, m_shown,
                               known ? static_cast<std::uint32_t>(mark.line + 1) : 0u,
                               known ? static_cast<std::uint32_t>(mark.column + 1) : 0u, message});
}

bool PolicyReader::check_map(const YAML::Node& node, const std::vector<std::string>& allowed,
                             const std::vector<std::string>& required, const std::string& what) {
  if (!node.IsMap()) {
    error(node, what + " must be a mapping with keys " + joined(allowed));
    return false;
  }
  bool ok = true;
  std::map<std::string, int> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      const std::string hint = suggest(key, allowed);
      error(it->first,
            "unknown key " + quoted(key) + " in " + what +
                (hint.empty() ? " (valid keys: " + joined(allowed) + ")" : " (did you mean " + quoted(hint) + "?)"));
      ok = false;
    } else if (!seen.emplace(key, it->first.Mark().line + 1).second) {
      error(it->first, "duplicate key " + quoted(key) + " in " + what);
      ok = false;
    }
  }
  for (const auto& key : required) {
    if (!seen.contains(key)) {
      error(node, what + " is missing the required key " + quoted(key));
      ok = false;
    }
  }
  return ok;
}

std::optional<std::string> PolicyReader::text(const YAML::Node& node, const std::string& what) {
  if (!node.IsScalar() || trim(node.Scalar()).empty()) {
    error(node, what + " must be a non-empty string");
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<double> PolicyReader::number(const YAML::Node& node, const std::string& what, double min, double max) {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || !std::isfinite(value)) {
    error(node, what + " must be a number");
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(node, what + " must be between " + std::to_string(min) + " and " + std::to_string(max));
    return std::nullopt;
  }
  return value;
}

std::optional<bool> PolicyReader::boolean(const YAML::Node& node, const std::string& what) {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    error(node, what + " must be true or false");
    return std::nullopt;
  }
  return value;
}

std::optional<std::vector<std::string>> PolicyReader::text_list(const YAML::Node& node, const std::string& what) {
  if (!node.IsSequence()) {
    error(node, what + " must be a list of strings");
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool ok = true;
  for (const YAML::Node& item : node) {
    auto value = text(item, what + " entry");
    if (value) out.push_back(std::move(*value));
    ok = ok && value.has_value();
  }
  return ok ? std::optional(std::move(out)) : std::nullopt;
}

std::optional<std::string> PolicyReader::word(const YAML::Node& node, const std::vector<std::string>& vocabulary,
                                              const std::string& what) {
  auto value = text(node, what);
  if (!value) return std::nullopt;
  if (std::find(vocabulary.begin(), vocabulary.end(), *value) != vocabulary.end()) return value;
  const std::string hint = suggest(*value, vocabulary);
  error(node, "unknown " + what + " " + quoted(*value) +
                  (hint.empty() ? " (expected one of: " + joined(vocabulary) + ")"
                                : " (did you mean " + quoted(hint) + "?)"));
  return std::nullopt;
}

std::optional<std::vector<std::string>> PolicyReader::word_list(const YAML::Node& node,
                                                                const std::vector<std::string>& vocabulary,
                                                                const std::string& what) {
  if (!node.IsSequence()) {
    error(node, what + " must be a list");
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool ok = true;
  for (const YAML::Node& item : node) {
    auto value = word(item, vocabulary, what);
    if (value) out.push_back(std::move(*value));
    ok = ok && value.has_value();
  }
  return ok ? std::optional(std::move(out)) : std::nullopt;
}

}  // namespace tr2audit::score::detail
