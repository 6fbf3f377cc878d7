// setup.py's setup() arguments: the dependency facts a package declares in code.
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
    auto deps = extract_dependencies(discover::FileKind::requirements, text);
    for (auto& dep : deps) {
      dep.section = m_src.str(section);
      dep.at = m_src.span(string);
      m_out.dependencies.push_back(std::move(dep));
    }
  };
  const auto list_named = [&](std::string_view name) -> TSNode {
    for (auto it = m_module_lists.rbegin(); it != m_module_lists.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return TSNode{};
  };
  // `deps["deepspeed"]`: the string of a module-level list whose requirement has that name.
  const auto lookup = [&](std::string_view key) {
    const auto wanted = extract_dependencies(discover::FileKind::requirements, key);
    if (wanted.size() != 1) return;
    for (const auto& [list_name, list] : m_module_lists) {
      const std::uint32_t n = ts_node_named_child_count(list);
      for (std::uint32_t i = 0; i < n; ++i) {
        const TSNode item = ts_node_named_child(list, i);
        const auto text = m_src.is(item, m_k.string) ? m_src.string_literal(item) : std::nullopt;
        if (!text) continue;
        const auto deps = extract_dependencies(discover::FileKind::requirements, *text);
        if (deps.size() == 1 && deps[0].name == wanted[0].name) return add(item, *text);
      }
    }
  };
  const auto visit = [&](TSNode root) {
    parse::walk(root, [&](const parse::WalkStep& step) {
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
      return true;
    });
  };
  visit(value);
  // Names of module-level lists, once: `install_requires=install_requires`, `REQUIRED + EXTRA`.
  parse::walk(value, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter) return true;
    if (m_src.is(step.node, m_k.string) || m_src.is(step.node, m_k.subscript)) return false;
    if (m_src.is(step.node, m_k.identifier)) {
      const TSNode list = list_named(m_src.node_text(step.node));
      if (!ts_node_is_null(list)) visit(list);
    }
    return true;
  });
}

}  // namespace tr2audit::facts
