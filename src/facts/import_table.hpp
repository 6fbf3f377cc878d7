// facts/import_table (private): scoped name bindings for one file, resolved the way Python does:
// the innermost function scope, then enclosing functions, then module scope; a class body is
// only visible to code directly inside it. A local assignment or parameter shadows an import.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tr2audit/core/qualified_name.hpp"

namespace tr2audit::facts {

enum class ScopeKind { module, klass, function };

class ImportTable {
 public:
  ImportTable();
  void push_scope(ScopeKind kind);
  void pop_scope();
  /// Binds name to an imported (or aliased) qualified name in the innermost scope. `guards` are the
  /// guards the binding was made under; they are kept only when it replaces another binding of the
  /// scope (`extension = CppExtension` ... `if cuda: extension = CUDAExtension`): then the name
  /// stands for the target only behind those guards, and the other value elsewhere.
  void bind(std::string_view name, QualifiedName target, std::uint16_t guards = 0);
  /// The guards a name's current binding was made under (see bind); 0 when unconditional.
  std::uint16_t guards_of(std::string_view name) const;
  /// Marks name as a local value in the innermost scope (it hides outer imports).
  void shadow(std::string_view name);
  /// The qualified name a local name stands for, or nullptr when it is not an import.
  const QualifiedName* lookup(std::string_view name) const;
  /// Resolves a dotted chain "F.interpolate" -> "torch.nn.functional.interpolate"; empty if unbound.
  /// Re-exported implementation paths come back as their public names (facts/canonical_names).
  QualifiedName resolve(std::string_view dotted) const;
  std::size_t depth() const { return m_scopes.size(); }

 private:
  struct Binding {
    QualifiedName target;
    bool shadowed = false;
    std::uint16_t guards = 0;
  };
  const Binding* find(std::string_view name) const;
  struct Scope {
    ScopeKind kind;
    std::unordered_map<std::string, Binding> names;
  };
  std::vector<Scope> m_scopes;
};

}  // namespace tr2audit::facts
