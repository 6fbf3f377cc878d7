// Import statements: bind local names in the current scope and record ImportFacts with relative
// imports resolved against the file's own module name.
#include <algorithm>
#include <cctype>

#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"

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

// A package's lazy re-exports: `_LAZY_IMPORTS = {"ModelLoader": ".model", ...}` served by a module
// `__getattr__`, or transformers' `_import_structure = {"configuration_llama": ["LlamaConfig"], ...}` served
// by `_LazyModule`. Each name is recorded as the import it stands for (`from .model import ModelLoader`),
// so that `from pkg import ModelLoader` reaches the class. Only a package's `__init__`, at module level, and
// a table whose name says what it is (`lazy`, `import_structure`).
void Walker::on_lazy_import_table(TSNode left, TSNode right) {
  if (!m_out.is_package_init || m_ctx.function >= 0 || m_ctx.klass >= 0 || ts_node_is_null(right) ||
      !m_src.is(right, m_k.dictionary))
    return;
  std::string table(m_src.node_text(left));
  std::transform(table.begin(), table.end(), table.begin(), [](unsigned char c) { return std::tolower(c); });
  if (table.find("lazy") == std::string::npos && table.find("import_structure") == std::string::npos) return;
  const std::uint32_t count = ts_node_named_child_count(right);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode pair = ts_node_named_child(right, i);
    if (!m_src.is(pair, m_k.pair)) continue;
    const auto key = m_src.string_literal(ts_node_child_by_field_id(pair, m_k.f_key));
    const TSNode value = m_src.unwrap_parens(ts_node_child_by_field_id(pair, m_k.f_value));
    if (!key || ts_node_is_null(value)) continue;
    std::uint32_t level = 0;
    if (const auto module = m_src.string_literal(value)) {  // {"ModelLoader": ".model"}
      const std::string dotted = lazy_module(*module, false, level);
      if (dotted.empty() || !is_identifier(*key)) continue;
      const auto module_qn = QualifiedName::from_dotted(dotted);
      add_import(module_qn.append(*key), module_qn, *key, level, value, pair);
      m_out.imports.back().lazy = true;
    } else if (m_src.is(value, m_k.list) || m_src.is(value, m_k.tuple)) {  // {"configuration_llama": ["LlamaConfig"]}
      const std::string dotted = lazy_module(*key, true, level);
      if (dotted.empty()) continue;
      const auto module_qn = QualifiedName::from_dotted(dotted);
      for (std::uint32_t j = 0; j < ts_node_named_child_count(value); ++j) {
        const TSNode item = ts_node_named_child(value, j);
        const auto name = m_src.string_literal(item);
        if (!name || !is_identifier(*name)) continue;
        add_import(module_qn.append(*name), module_qn, *name, level, item, pair);
        m_out.imports.back().lazy = true;
      }
    }
  }
}

std::string Walker::lazy_module(std::string_view text, bool relative_key, std::uint32_t& level) const {
  level = 0;
  while (level < text.size() && text[level] == '.') ++level;
  const std::string_view tail = text.substr(level);
  if (tail.empty() || !std::all_of(tail.begin(), tail.end(), [](char c) {
        return c == '.' || c == '_' || std::isalnum(static_cast<unsigned char>(c));
      }))
    return {};
  const QualifiedName own = QualifiedName::from_dotted(m_out.module_name);
  if (level == 0 && !relative_key) {  // an absolute module of this project only
    return own.first_segment() == QualifiedName::from_dotted(tail).first_segment() ? std::string(tail) : std::string();
  }
  if (level == 0) level = 1;  // transformers' keys are submodules of this package
  std::vector<std::string_view> segments = own.segments();
  for (std::uint32_t up = 1; up < level && !segments.empty(); ++up) segments.pop_back();
  std::string base;
  for (const auto& segment : segments) base += (base.empty() ? "" : ".") + std::string(segment);
  return base.empty() ? std::string(tail) : base + "." + std::string(tail);
}

}  // namespace tr2audit::facts
