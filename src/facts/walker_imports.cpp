// Import statements: bind local names in the current scope and record ImportFacts with relative
// imports resolved against the file's own module name.
#include <algorithm>

#include "facts/walker.hpp"

namespace tr2audit::facts {

void Walker::add_import(QualifiedName target, QualifiedName module, std::string bound, std::uint32_t level, TSNode at,
                        TSNode statement) {
  if (m_mode != Mode::full) return;
  ImportFact fact;
  fact.target = m_src.name(target);
  fact.module = m_src.name(module);
  fact.bound_name = m_src.str(bound);
  fact.relative_level = level;
  fact.at = m_src.span(at);
  fact.statement = m_src.span(statement);
  fact.ctx = m_ctx;
  m_out.imports.push_back(std::move(fact));
}

void Walker::on_import(TSNode node) {
  const std::uint32_t count = ts_node_named_child_count(node);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (m_src.is(child, m_k.aliased_import)) {
      const std::string name(m_src.node_text(ts_node_child_by_field_id(child, m_k.f_name)));
      const std::string alias(m_src.node_text(ts_node_child_by_field_id(child, m_k.f_alias)));
      const auto qn = QualifiedName::from_dotted(name);
      m_imports.bind(alias, qn);
      add_import(qn, qn, alias, 0, child, node);
    } else if (m_src.is(child, m_k.dotted_name)) {
      const auto qn = QualifiedName::from_dotted(m_src.node_text(child));
      const std::string top(qn.first_segment());
      m_imports.bind(top, QualifiedName::from_dotted(top));  // `import a.b` binds `a`
      add_import(qn, qn, top, 0, child, node);
    }
  }
}

std::string Walker::resolve_relative(TSNode relative_import, std::uint32_t& level) const {
  std::string tail;
  level = 0;
  const std::uint32_t count = ts_node_named_child_count(relative_import);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(relative_import, i);
    if (m_src.is(child, m_k.import_prefix)) {
      const auto text = m_src.node_text(child);
      level = static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '.'));
    } else if (m_src.is(child, m_k.dotted_name)) {
      tail = std::string(m_src.node_text(child));
    }
  }
  // The package of this file, then one level up per extra dot.
  const QualifiedName own_module = QualifiedName::from_dotted(m_out.module_name);
  std::vector<std::string_view> segments = own_module.segments();
  if (!m_out.is_package_init && !segments.empty()) segments.pop_back();
  for (std::uint32_t up = 1; up < level && !segments.empty(); ++up) segments.pop_back();
  std::string base;
  for (const auto& segment : segments) base += (base.empty() ? "" : ".") + std::string(segment);
  if (tail.empty()) return base;
  return base.empty() ? tail : base + "." + tail;
}

void Walker::on_import_from(TSNode node) {
  const TSNode module_node = ts_node_child_by_field_id(node, m_k.f_module_name);
  if (ts_node_is_null(module_node)) return;
  std::uint32_t level = 0;
  const std::string module = m_src.is(module_node, m_k.relative_import) ? resolve_relative(module_node, level)
                                                                        : std::string(m_src.node_text(module_node));
  const auto module_qn = QualifiedName::from_dotted(module);
  const std::uint32_t count = ts_node_named_child_count(node);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (ts_node_eq(child, module_node)) continue;
    if (m_src.is(child, m_k.wildcard_import)) {
      if (m_mode == Mode::full) {
        add_import(module_qn, module_qn, "*", level, child, node);
        m_out.imports.back().star = true;
      }
      continue;
    }
    TSNode name_node = child;
    std::string bound;
    if (m_src.is(child, m_k.aliased_import)) {
      name_node = ts_node_child_by_field_id(child, m_k.f_name);
      bound = std::string(m_src.node_text(ts_node_child_by_field_id(child, m_k.f_alias)));
    }
    if (!m_src.is(name_node, m_k.dotted_name)) continue;
    const std::string name(m_src.node_text(name_node));
    if (bound.empty()) bound = name;
    const QualifiedName target = module_qn.append(name);
    m_imports.bind(bound, target);
    add_import(target, module_qn, bound, level, child, node);
  }
}

}  // namespace tr2audit::facts
