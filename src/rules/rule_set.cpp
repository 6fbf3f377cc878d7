#include "tr2audit/rules/rule_set.hpp"

#include <algorithm>

#include "tr2audit/core/qualified_name.hpp"

namespace tr2audit::rules {

void SubjectIndex::add(std::uint32_t index, const Rule& rule) {
  m_all.push_back(index);
  for (const std::string& name : rule.names.exact()) m_exact[name].push_back(index);
  for (const std::string& glob : rule.names.globs()) {
    const std::size_t last_wild = glob.find_last_of("*?");
    const std::string suffix = last_wild == std::string::npos ? glob : glob.substr(last_wild + 1);
    const bool wild_first = glob.empty() || glob.front() == '*' || glob.front() == '?';
    m_globs[wild_first ? k_wild_first : static_cast<unsigned char>(glob.front())].push_back(Glob{glob, suffix, index});
  }
}

void SubjectIndex::candidates(std::string_view name, const std::vector<Rule>& /*rules*/,
                              std::vector<std::uint32_t>& out) const {
  const auto hit = m_exact.find(std::string(name));
  if (hit != m_exact.end()) out.insert(out.end(), hit->second.begin(), hit->second.end());
  const std::size_t first_glob_hit = out.size();
  const auto try_globs = [&](const std::vector<Glob>& globs) {
    for (const Glob& glob : globs) {
      if (name.size() >= glob.suffix.size() && name.ends_with(glob.suffix) && glob_match(glob.pattern, name))
        out.push_back(glob.rule);
    }
  };
  if (!name.empty()) try_globs(m_globs[static_cast<unsigned char>(name.front())]);
  try_globs(m_globs[k_wild_first]);
  // Rule order (ascending index), each rule once, as a scan over the rules would give.
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first_glob_hit), out.end());
  out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first_glob_hit), out.end()), out.end());
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
