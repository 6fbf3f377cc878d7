#include "facts/import_table.hpp"

#include "facts/canonical_names.hpp"

namespace tr2audit::facts {

ImportTable::ImportTable() {
  m_scopes.push_back(Scope{ScopeKind::module, {}});
}

void ImportTable::push_scope(ScopeKind kind) {
  m_scopes.push_back(Scope{kind, {}});
}

void ImportTable::pop_scope() {
  if (m_scopes.size() > 1) m_scopes.pop_back();
}

void ImportTable::bind(std::string_view name, QualifiedName target) {
  m_scopes.back().names[std::string(name)] = Binding{std::move(target), false};
}

void ImportTable::shadow(std::string_view name) {
  m_scopes.back().names[std::string(name)] = Binding{{}, true};
}

const QualifiedName* ImportTable::lookup(std::string_view name) const {
  const std::string key(name);
  for (std::size_t i = m_scopes.size(); i-- > 0;) {
    const Scope& scope = m_scopes[i];
    // A class body's names are invisible from methods nested in it (Python scoping).
    if (scope.kind == ScopeKind::klass && i + 1 != m_scopes.size()) continue;
    const auto it = scope.names.find(key);
    if (it == scope.names.end()) continue;
    return it->second.shadowed ? nullptr : &it->second.target;
  }
  return nullptr;
}

QualifiedName ImportTable::resolve(std::string_view dotted) const {
  const auto dot = dotted.find('.');
  const QualifiedName* base = lookup(dotted.substr(0, dot));
  if (!base) return {};
  return canonical_name(dot == std::string_view::npos ? *base : base->append(dotted.substr(dot + 1)));
}

}  // namespace tr2audit::facts
