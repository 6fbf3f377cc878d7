#include "tr2audit/rules/rule.hpp"

#include "tr2audit/core/qualified_name.hpp"

namespace tr2audit::rules {

namespace {

constexpr std::array<std::string_view, k_all_subject_kinds.size()> k_subject_names{
    "call", "call_text",  "method",  "import",    "decorator", "assign", "device",
    "file", "dependency", "pattern", "reference", "op",        "setting"};

bool is_glob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

}  // namespace

std::string_view to_string(SubjectKind kind) {
  return k_subject_names[static_cast<std::size_t>(kind)];
}

std::optional<SubjectKind> parse_subject_kind(std::string_view text) {
  for (SubjectKind kind : k_all_subject_kinds) {
    if (to_string(kind) == text) return kind;
  }
  return std::nullopt;
}

void NameMatcher::add(std::string_view pattern) {
  m_patterns.emplace_back(pattern);
  if (is_glob(pattern)) {
    m_globs.emplace_back(pattern);
  } else {
    m_exact.emplace(pattern);
  }
}

bool NameMatcher::matches(std::string_view text) const {
  if (m_exact.find(std::string(text)) != m_exact.end()) return true;
  for (const std::string& glob : m_globs) {
    if (glob_match(glob, text)) return true;
  }
  return false;
}

bool Predicates::empty() const {
  return regions.none() && !in_loop && !in_training_loop && !runs_once && guards == 0 && !in_error_region &&
         !in_decorator && !in_assert && !in_test && !neuron_stack && !repo_loads_compiled_code && functions.empty() &&
         paths.empty();
}

Severity Rule::severity_for(TargetProfile profile) const {
  const auto& override_severity = severity_by_profile[static_cast<std::size_t>(profile)];
  return override_severity ? *override_severity : severity;
}

Severity Rule::severity_for(TargetProfile profile, std::optional<facts::Region> region) const {
  if (region) {
    if (const auto& by_region = severity_by_region[static_cast<std::size_t>(*region)]) return *by_region;
  }
  return severity_for(profile);
}

std::string_view Rule::name() const {
  const std::size_t dot = id.find('.');
  return dot == std::string::npos ? std::string_view(id) : std::string_view(id).substr(dot + 1);
}

}  // namespace tr2audit::rules
