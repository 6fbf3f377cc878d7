// score/policy_reader: strict YAML helpers for the scoring-policy loader. Every error becomes an
// invalid_config Problem with file:line:column; unknown keys get a "did you mean" suggestion.
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"

namespace tr2audit::score::detail {

class PolicyReader {
 public:
  PolicyReader(std::string shown, std::vector<Problem>& problems) : m_shown(std::move(shown)), m_problems(problems) {}

  /// Records a problem at the node's position.
  void error(const YAML::Node& node, const std::string& message);
  /// True when node is a map; reports unknown/duplicate keys (with a suggestion) and missing required ones.
  bool check_map(const YAML::Node& node, const std::vector<std::string>& allowed,
                 const std::vector<std::string>& required, const std::string& what);
  std::optional<std::string> text(const YAML::Node& node, const std::string& what);
  std::optional<double> number(const YAML::Node& node, const std::string& what, double min, double max);
  std::optional<bool> boolean(const YAML::Node& node, const std::string& what);
  std::optional<std::vector<std::string>> text_list(const YAML::Node& node, const std::string& what);
  /// A word from a closed vocabulary, with a suggestion when it is a near miss.
  std::optional<std::string> word(const YAML::Node& node, const std::vector<std::string>& vocabulary,
                                  const std::string& what);
  /// Each listed word must belong to the vocabulary.
  std::optional<std::vector<std::string>> word_list(const YAML::Node& node, const std::vector<std::string>& vocabulary,
                                                    const std::string& what);

 private:
  std::string m_shown;
  std::vector<Problem>& m_problems;
};

}  // namespace tr2audit::score::detail
