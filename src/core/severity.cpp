#include "tr2audit/core/severity.hpp"

#include <utility>

namespace tr2audit {
namespace {

template <class Enum, std::size_t N>
std::optional<Enum> parse_by_name(std::string_view text, const std::array<Enum, N>& values) {
  for (Enum value : values) {
    if (to_string(value) == text) return value;
  }
  return std::nullopt;
}

constexpr std::array k_all_confidences{Confidence::high, Confidence::medium, Confidence::low};

}  // namespace

std::string_view to_string(Severity value) {
  switch (value) {
    case Severity::info:
      return "info";
    case Severity::low:
      return "low";
    case Severity::medium:
      return "medium";
    case Severity::high:
      return "high";
    case Severity::blocker:
      return "blocker";
  }
  return "info";
}

std::string_view to_string(Confidence value) {
  switch (value) {
    case Confidence::low:
      return "low";
    case Confidence::medium:
      return "medium";
    case Confidence::high:
      return "high";
  }
  return "low";
}

std::string_view to_string(Category value) {
  switch (value) {
    case Category::cuda_extension:
      return "cuda-extension";
    case Category::cuda_library:
      return "cuda-library";
    case Category::cuda_api:
      return "cuda-api";
    case Category::dynamic_graph:
      return "dynamic-graph";
    case Category::dynamic_shape:
      return "dynamic-shape";
    case Category::operator_support:
      return "operator-support";
    case Category::neuron_ready:
      return "neuron-ready";
    case Category::training_setup:
      return "training-setup";
  }
  return "cuda-api";
}

std::string_view to_string(TargetProfile value) {
  switch (value) {
    case TargetProfile::native:
      return "native";
    case TargetProfile::xla:
      return "xla";
  }
  return "native";
}

std::optional<Severity> parse_severity(std::string_view text) {
  return parse_by_name(text, k_all_severities);
}
std::optional<Confidence> parse_confidence(std::string_view text) {
  return parse_by_name(text, k_all_confidences);
}
std::optional<Category> parse_category(std::string_view text) {
  return parse_by_name(text, k_all_categories);
}
std::optional<TargetProfile> parse_target_profile(std::string_view text) {
  return parse_by_name(text, k_all_profiles);
}

}  // namespace tr2audit
