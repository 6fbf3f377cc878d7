#include "tr2audit/rules/rule_set.hpp"

#include <algorithm>

#include "tr2audit/core/qualified_name.hpp"

namespace tr2audit::rules {

void SubjectIndex::add(std::uint32_t index, const Rule& rule) {
  m_all.push_back(index);
  for (const std::string& name : rule.names.exact()) m_exact[name].push_back(index);
  if (!rule.names.globs().empty()) m_with_globs.push_back(index);
}

void SubjectIndex::candidates(std::string_view name, const std::vector<Rule>& rules,
                              std::vector<std::uint32_t>& out) const {
  const auto hit = m_exact.find(std::string(name));
  if (hit != m_exact.end()) out.insert(out.end(), hit->second.begin(), hit->second.end());
  for (std::uint32_t index : m_with_globs) {
    for (const std::string& glob : rules[index].names.globs()) {
      if (glob_match(glob, name)) {
        out.push_back(index);
        break;
      }
    }
  }
}

RuleSet::RuleSet(std::vector<Rule> rules) : m_rules(std::move(rules)) {
  std::stable_sort(m_rules.begin(), m_rules.end(), [](const Rule& a, const Rule& b) { return a.id < b.id; });
  for (std::uint32_t i = 0; i < m_rules.size(); ++i) {
    m_index[static_cast<std::size_t>(m_rules[i].subject)].add(i, m_rules[i]);
  }
}

const Rule* RuleSet::find(std::string_view id) const {
  const auto it = std::lower_bound(m_rules.begin(), m_rules.end(), id,
                                   [](const Rule& rule, std::string_view key) { return rule.id < key; });
  return it != m_rules.end() && it->id == id ? &*it : nullptr;
}

RuleSet RuleSet::only(std::string_view id) const {
  const Rule* rule = find(id);
  return rule == nullptr ? RuleSet() : RuleSet(std::vector<Rule>{*rule});
}

}  // namespace tr2audit::rules
