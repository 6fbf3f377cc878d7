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

void ImportTable::bind(std::string_view name, QualifiedName target, std::uint16_t guards) {
  auto& names = m_scopes.back().names;
  const auto before = names.find(std::string(name));
  const bool replaces =
      before != names.end() && !before->second.shadowed && before->second.target.dotted() != target.dotted();
  names[std::string(name)] = Binding{std::move(target), false, replaces ? guards : std::uint16_t{0}};
}

std::uint16_t ImportTable::guards_of(std::string_view name) const {
  const Binding* binding = find(name);
  return binding != nullptr && !binding->shadowed ? binding->guards : 0;
}

void ImportTable::shadow(std::string_view name) {
  m_scopes.back().names[std::string(name)] = Binding{{}, true};
}

const ImportTable::Binding* ImportTable::find(std::string_view name) const {
  const std::string key(name);
  for (std::size_t i = m_scopes.size(); i-- > 0;) {
    const Scope& scope = m_scopes[i];
    // A class body's names are invisible from methods nested in it (Python scoping).
    if (scope.kind == ScopeKind::klass && i + 1 != m_scopes.size()) continue;
    const auto it = scope.names.find(key);
    if (it != scope.names.end()) return &it->second;
  }
  return nullptr;
}

const QualifiedName* ImportTable::lookup(std::string_view name) const {
  const Binding* binding = find(name);
  return binding == nullptr || binding->shadowed ? nullptr : &binding->target;
}

QualifiedName ImportTable::resolve(std::string_view dotted) const {
  const auto dot = dotted.find('.');
  const QualifiedName* base = lookup(dotted.substr(0, dot));
  if (!base) return {};
  return canonical_name(dot == std::string_view::npos ? *base : base->append(dotted.substr(dot + 1)));
}

}  // namespace tr2audit::facts
