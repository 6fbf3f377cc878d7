// setup.py's setup() arguments: the dependency facts a package declares in code.
#include <utility>

#include "facts/walker.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::facts {

// setup(install_requires=[...], extras_require={...}) in setup.py: dependency facts.
void Walker::on_setup_call(TSNode node) {
  const TSNode args = ts_node_child_by_field_id(node, m_k.f_arguments);
  const std::uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(args, i);
    if (!m_src.is(arg, m_k.keyword_argument)) continue;
    const auto name = m_src.node_text(ts_node_child_by_field_id(arg, m_k.f_name));
    if (name != "install_requires" && name != "extras_require" && name != "setup_requires") continue;
    add_setup_requirements(ts_node_child_by_field_id(arg, m_k.f_value), name);
  }
}

// The requirement strings of a setup() argument: literals where they stand; a module-level list named
// in it (`install_requires=install_requires`, `REQUIRED + EXTRA`); and a lookup into a table of pinned
// requirements (Hugging Face's `deps["deepspeed"]` over `_deps = ["deepspeed==0.16.8", ...]`), at the
// table's string. One level of names: a list that names another list is not followed further.
void Walker::add_setup_requirements(TSNode value, std::string_view section) {
  const auto add = [&](TSNode string, std::string_view text) {
    for (auto& dep : extract_dependencies(discover::FileKind::requirements, text)) {
      dep.section = m_src.str(section);
      dep.at = m_src.span(string);
      m_out.dependencies.push_back(std::move(dep));
    }
  };
  // The pinned requirements of the module-level lists, by name, read once when a lookup needs them.
  std::vector<std::pair<FactString, TSNode>> pins;
  bool pins_read = false;
  const auto lookup = [&](std::string_view key) {
    if (!std::exchange(pins_read, true)) {
      for (const auto& list : m_module_lists) {
        const std::uint32_t n = ts_node_named_child_count(list.second);
        for (std::uint32_t i = 0; i < n; ++i) {
          const TSNode item = ts_node_named_child(list.second, i);
          const auto text = m_src.is(item, m_k.string) ? m_src.string_literal(item) : std::nullopt;
          const auto deps =
              text ? extract_dependencies(discover::FileKind::requirements, *text) : std::vector<DependencyFact>{};
          if (deps.size() == 1) pins.emplace_back(deps[0].name, item);
        }
      }
    }
    const auto wanted = extract_dependencies(discover::FileKind::requirements, key);
    if (wanted.size() != 1) return;
    for (const auto& [name, item] : pins) {
      if (name == wanted[0].name) return add(item, *m_src.string_literal(item));
    }
  };
  // The argument, then the module-level lists it names (`roots` grows while the argument is walked).
  std::vector<TSNode> roots{value};
  for (std::size_t r = 0; r < roots.size(); ++r) {
    parse::walk(roots[r], [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter) return true;
      const TSNode at = step.node;
      if (m_src.is(at, m_k.string)) {
        const TSNode parent = ts_node_parent(at);
        const bool dict_key =
            std::string_view(ts_node_type(parent)) == "pair" && ts_node_eq(ts_node_named_child(parent, 0), at);
        if (const auto text = m_src.string_literal(at); text && !dict_key) add(at, *text);
        return false;
      }
      if (m_src.is(at, m_k.subscript)) {
        if (const auto key = m_src.string_literal(ts_node_child_by_field_id(at, m_k.f_subscript))) lookup(*key);
        return false;
      }
      if (r == 0 && m_src.is(at, m_k.identifier)) {
        const std::string_view name = m_src.node_text(at);
        for (auto it = m_module_lists.rbegin(); it != m_module_lists.rend(); ++it) {
          if (it->first == name) {
            roots.push_back(it->second);
            break;
          }
        }
      }
      return true;
    });
  }
}

}  // namespace tr2audit::facts
