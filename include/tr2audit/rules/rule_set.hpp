// rules/rule_set: the loaded rules, sorted by id and indexed by subject kind so that matching a
// file tries only the rules of each fact's kind (exact names by hash, then globs). load_rules reads
// rule folders into a RuleSet plus the Problems (invalid_rule) of every bad rule file.
#pragma once
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/rules/rule.hpp"

namespace tr2audit::rules {

/// The rules of one subject kind, indexed by name.
class SubjectIndex {
 public:
  /// Adds rule `index` (into the RuleSet) under its names.
  void add(std::uint32_t index, const Rule& rule);
  /// Appends the indices of rules whose names match `name` (exact hash lookup first, then globs).
  void candidates(std::string_view name, const std::vector<Rule>& rules, std::vector<std::uint32_t>& out) const;
  /// Every rule of the kind, ascending.
  const std::vector<std::uint32_t>& all() const { return m_all; }

 private:
  /// One glob of one rule, with the literal text after its last wildcard (a cheap test before the match).
  struct Glob {
    std::string pattern;
    std::string suffix;
    std::uint32_t rule = 0;
  };
  static constexpr std::size_t k_wild_first = 256;  ///< bucket of globs that start with a wildcard

  std::unordered_map<std::string, std::vector<std::uint32_t>> m_exact;
  /// Globs by their first character (k_wild_first: `*`/`?`): a name is tried only against the globs
  /// that can match its first character, not against every glob of every rule.
  std::array<std::vector<Glob>, k_wild_first + 1> m_globs;
  std::vector<std::uint32_t> m_all;
};

class RuleSet {
 public:
  RuleSet() = default;
  /// Takes the rules, sorts them by id and builds the per-subject index.
  explicit RuleSet(std::vector<Rule> rules);

  const std::vector<Rule>& rules() const { return m_rules; }
  std::size_t size() const { return m_rules.size(); }
  bool empty() const { return m_rules.empty(); }
  /// The rule with this id, or nullptr.
  const Rule* find(std::string_view id) const;
  /// The index of the rules of one subject kind.
  const SubjectIndex& index(SubjectKind kind) const { return m_index[static_cast<std::size_t>(kind)]; }
  /// A RuleSet holding only the rule with this id (empty when unknown): ruff's `for_rule`.
  RuleSet only(std::string_view id) const;

 private:
  std::vector<Rule> m_rules;
  std::array<SubjectIndex, k_all_subject_kinds.size()> m_index{};
};

struct LoadedRules {
  RuleSet rules;
  std::vector<Problem> problems;  ///< invalid_rule problems, sorted by (path, line, column)
};

/// Loads every `**/*.yaml` under each folder (except neuron-ops.yaml and scoring.yaml at a folder's
/// top), in sorted order. Never throws: every error becomes a Problem and the bad rule is left out.
LoadedRules load_rules(const std::vector<std::filesystem::path>& dirs);

/// Loads one rule from YAML text (exposed for tests); `path` names it in problems and is checked
/// against the id. Duplicate ids are checked by load_rules, not here.
std::optional<Rule> load_rule_text(std::string_view yaml_text, const std::filesystem::path& path,
                                   std::vector<Problem>& problems);

}  // namespace tr2audit::rules
