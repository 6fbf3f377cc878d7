// core/severity: the fixed vocabularies of the report contract (architecture.md §11).
// Dashboards group by these strings: extend only additively.
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace tr2audit {

enum class Severity { info, low, medium, high, blocker };  // ordered: compare with <
enum class Confidence { low, medium, high };
enum class Category {
  cuda_extension,
  cuda_library,
  cuda_api,
  dynamic_graph,
  dynamic_shape,
  operator_support,
  neuron_ready,
  training_setup,
};
enum class TargetProfile { native, xla };

inline constexpr std::array k_all_severities{Severity::blocker, Severity::high, Severity::medium, Severity::low,
                                             Severity::info};
inline constexpr std::array k_all_categories{
    Category::cuda_extension, Category::cuda_library,     Category::cuda_api,     Category::dynamic_graph,
    Category::dynamic_shape,  Category::operator_support, Category::neuron_ready, Category::training_setup};
inline constexpr std::array k_all_profiles{TargetProfile::native, TargetProfile::xla};

std::string_view to_string(Severity value);
std::string_view to_string(Confidence value);
std::string_view to_string(Category value);
std::string_view to_string(TargetProfile value);

std::optional<Severity> parse_severity(std::string_view text);
std::optional<Confidence> parse_confidence(std::string_view text);
std::optional<Category> parse_category(std::string_view text);
std::optional<TargetProfile> parse_target_profile(std::string_view text);

}  // namespace tr2audit
