// rules/rule_spec (private): the raw layer of a rule file. read_rule_spec checks the YAML's shape
// (allowed keys, types, required keys) and keeps every value with its 1-based position;
// compile_rule then checks vocabularies and cross-field constraints and builds a Rule.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/rules/rule.hpp"

namespace YAML {
class Node;
}

namespace tr2audit::rules {

struct Pos {
  std::uint32_t line = 0;  ///< 1-based
  std::uint32_t column = 0;
};

struct Text {
  std::string value;
  Pos at;
};
using TextList = std::vector<Text>;

struct Flag {
  bool value = false;
  Pos at;
};

struct Count {
  std::uint32_t value = 0;
  Pos at;
};

struct KeywordSpec {
  Text keyword;
  TextList values;
};

struct PositionalSpec {
  Count index;
  TextList values;
};

struct MatchSpec {
  Pos at;
  Text subject;                      ///< the subject key as written ("call") at its position
  TextList names;                    ///< its list (or the one scalar of `file`)
  std::vector<Text> condition_keys;  ///< every condition key present, for the applies-to check
  std::vector<KeywordSpec> keyword;
  std::optional<TextList> missing_keyword;
  std::vector<PositionalSpec> positional;
  std::optional<Count> min_args;
  std::optional<Count> max_args;
  std::optional<TextList> receiver;
  std::optional<TextList> not_receiver;
  std::optional<TextList> value;
  std::optional<TextList> any_argument;
  std::optional<TextList> not_argument;
  std::optional<TextList> exclude;
  std::optional<TextList> section;
  std::optional<TextList> not_section;
  std::optional<TextList> use;
  std::optional<TextList> origin;
  std::optional<Flag> dynamic;
  std::optional<Flag> value_calls_gpu_only;  ///< setting subject
  std::optional<Flag> outside_package;
  std::optional<Flag> item_argument;
  std::optional<Flag> fixed_buffer_decode;
  std::optional<Flag> returned;
  std::optional<Flag> logged;
  std::optional<TextList> not_chained_into;
  std::optional<Flag> checked_only;
  std::optional<TextList> status;   ///< op subject: the row's status under the target profile
  std::optional<TextList> effect;   ///< op subject: the status's effect
  std::optional<TextList> op_kind;  ///< op subject: the row's kind
};

struct PredicatesSpec {
  Pos at;
  std::optional<TextList> region;
  std::optional<Flag> in_loop;
  std::optional<Flag> in_training_loop;
  std::optional<Flag> runs_once;
  std::optional<TextList> guard;
  std::optional<Flag> in_error_region;
  std::optional<Flag> in_decorator;
  std::optional<Flag> in_assert;
  std::optional<Flag> in_test;
  std::optional<Flag> neuron_stack;
  std::optional<Flag> repo_loads_compiled_code;
  std::optional<TextList> function;
  std::optional<TextList> path;
};

struct SeverityOverride {
  Text profile;  ///< the key: a profile (severity_by_profile) or a region (severity_by_region)
  Text severity;
};

struct RuleSpec {
  std::string path;  ///< the file, as shown in problems
  Pos at;
  Text id, title, category, severity, confidence, message, why, fix;
  std::optional<Text> example;
  std::optional<Flag> catch_all;
  std::optional<Flag> wrappers;
  std::optional<TextList> profiles;
  std::vector<SeverityOverride> severity_by_profile;
  std::vector<SeverityOverride> severity_by_region;
  TextList sources;
  std::optional<TextList> library;
  std::optional<Flag> weighed_by_use;
  std::optional<Flag> extension_modules;
  MatchSpec match;
  std::optional<PredicatesSpec> where;
  std::optional<PredicatesSpec> unless;
};

/// Reads a parsed rule document; appends a Problem per shape error and returns nullopt on any.
std::optional<RuleSpec> read_rule_spec(const YAML::Node& root, const std::string& path, std::vector<Problem>& problems);

/// Checks vocabularies, the id against category and file name, conditions against the subject, and
/// builds the Rule; appends a Problem per error and returns nullopt on any.
std::optional<Rule> compile_rule(const RuleSpec& spec, const std::filesystem::path& file,
                                 std::vector<Problem>& problems);

/// A Problem of kind invalid_rule at a position.
Problem rule_problem(const std::string& path, Pos at, std::string message);

}  // namespace tr2audit::rules
