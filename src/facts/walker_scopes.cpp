// Scope-opening nodes: functions, classes, loops and lambdas push a context frame (and, except for
// loops, a name scope) that the matching leave event pops.
#include <algorithm>

#include "facts/walker.hpp"

namespace tr2audit::facts {
namespace {

std::string join_qualname(const std::string& outer, std::string_view name) {
  return outer.empty() ? std::string(name) : outer + "." + std::string(name);
}

// The qualname of the innermost enclosing def or class: a class is innermost when it was defined
// inside the current function (or at module level), otherwise the function is (a method).
std::string enclosing_qualname(const FileFacts& out, const Context& ctx) {
  const bool class_is_inner =
      ctx.klass >= 0 && (ctx.function < 0 || out.classes[ctx.klass].parent_function == ctx.function);
  if (class_is_inner) return out.classes[ctx.klass].qualname;
  return ctx.function >= 0 ? out.functions[ctx.function].qualname : std::string{};
}

}  // namespace

void Walker::shadow_parameters(TSNode parameters) {
  if (ts_node_is_null(parameters)) return;
  const std::uint32_t count = ts_node_named_child_count(parameters);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode param = ts_node_named_child(parameters, i);
    const TSSymbol kind = ts_node_symbol(param);
    if (kind == m_k.default_parameter || kind == m_k.typed_default_parameter) {
      param = ts_node_child_by_field_id(param, m_k.f_name);
    } else if (kind == m_k.typed_parameter || kind == m_k.list_splat_pattern || kind == m_k.dictionary_splat_pattern) {
      param = ts_node_named_child(param, 0);
    }
    if (m_src.is(param, m_k.identifier)) m_imports.shadow(m_src.node_text(param));
  }
}

// `def eval_str_dict(x, type=dict): if x is None: return None` (after a docstring, also `return x`): the index of
// the parameter a call gets back as None when it passes None (FunctionInfo::none_passthrough); -1 when none. Only
// the body's first statements are read, child by child: no walk.
std::int8_t Walker::none_passthrough(TSNode node, const std::vector<std::string_view>& names) const {
  const TSNode body = ts_node_child_by_field_id(node, m_k.f_body);
  if (!m_src.is(body, m_k.block)) return -1;
  TSNode first = ts_node_named_child(body, 0);
  if (m_src.is(first, m_k.expression_statement) && m_src.is(ts_node_named_child(first, 0), m_k.string))
    first = ts_node_named_child(body, 1);
  if (!m_src.is(first, m_k.if_statement)) return -1;
  const TSNode test = ts_node_child_by_field_id(first, m_k.f_condition);
  if (!m_src.is(test, m_k.comparison_operator) || ts_node_named_child_count(test) != 2 ||
      !m_src.is(ts_node_named_child(test, 1), m_k.none) || ts_node_child_count(test) != 3)
    return -1;  // `x is None`: two operands and one `is` (`is not` is a second operator token)
  const TSNode op = ts_node_child(test, 1);
  const TSNode tested = ts_node_named_child(test, 0);
  if (m_src.node_text(op) != "is" || !m_src.is(tested, m_k.identifier)) return -1;
  const TSNode then = ts_node_child_by_field_id(first, m_k.f_consequence);
  const TSNode leave = m_src.is(then, m_k.block) ? ts_node_named_child(then, 0) : TSNode{};
  if (!m_src.is(leave, m_k.return_statement) || ts_node_named_child_count(leave) != 1) return -1;
  const TSNode value = ts_node_named_child(leave, 0);
  const std::string_view name = m_src.node_text(tested);
  if (!m_src.is(value, m_k.none) && !(m_src.is(value, m_k.identifier) && m_src.node_text(value) == name)) return -1;
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end() || at - names.begin() > 100) return -1;
  return static_cast<std::int8_t>(at - names.begin());
}

void Walker::enter_function(TSNode node) {
  FunctionInfo info;
  info.name = m_src.str(m_src.node_text(ts_node_child_by_field_id(node, m_k.f_name)));
  info.qualname = m_src.str(join_qualname(enclosing_qualname(m_out, m_ctx), info.name));
  const bool is_method =
      m_ctx.klass >= 0 && (m_ctx.function < 0 || m_out.classes[m_ctx.klass].parent_function == m_ctx.function);
  info.klass = is_method ? m_ctx.klass : -1;
  info.parent = m_ctx.function;
  info.is_async = m_src.node_text(node).substr(0, 5) == "async";
  info.at = m_src.span(node);
  const TSNode parent = ancestor(1);  // node is the one being entered: its ancestors are on the walk's path
  // The statement list holding the definition: the module, or a class/function body.
  const std::size_t holder_up = m_src.is(parent, m_k.decorated_definition) ? 2 : 1;
  const TSNode holder = ancestor(holder_up);
  const TSNode scope = ancestor(holder_up + 1);
  const bool body = m_src.is(holder, m_k.block) &&
                    (m_src.is(scope, m_k.class_definition) || m_src.is(scope, m_k.function_definition));
  info.conditional = !m_src.is(holder, m_k.module) && !body;
  bool no_grad = false;
  std::vector<QualifiedName> decorators;  // built here, then kept as compact arrays
  std::vector<FactString> param_texts;
  std::vector<Argument> defaults;
  std::vector<std::string_view> param_names;
  if (m_src.is(parent, m_k.decorated_definition)) {
    const std::uint32_t count = ts_node_named_child_count(parent);
    for (std::uint32_t i = 0; i < count; ++i) {
      const TSNode decorator = ts_node_named_child(parent, i);
      if (!m_src.is(decorator, m_k.decorator)) continue;
      TSNode expr = ts_node_named_child(decorator, 0);
      if (m_src.is(expr, m_k.call)) expr = ts_node_child_by_field_id(expr, m_k.f_function);
      QualifiedName name = resolve(expr);
      if (name.empty()) name = QualifiedName::from_dotted(m_src.node_text(expr));
      no_grad |= name.dotted() == "torch.no_grad" || name.dotted() == "torch.inference_mode";
      decorators.push_back(m_src.name(name));
    }
  }
  const TSNode params = ts_node_child_by_field_id(node, m_k.f_parameters);
  const std::uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode param = ts_node_named_child(params, i);
    param_texts.push_back(m_src.capped(param, 60));
    const bool defaulted = m_src.is(param, m_k.default_parameter) || m_src.is(param, m_k.typed_default_parameter);
    const TSNode named = defaulted                              ? ts_node_child_by_field_id(param, m_k.f_name)
                         : m_src.is(param, m_k.typed_parameter) ? ts_node_named_child(param, 0)
                                                                : param;
    param_names.push_back(m_src.is(named, m_k.identifier) ? m_src.node_text(named) : std::string_view{});
    if (defaulted) {
      Argument value = m_src.literal(ts_node_child_by_field_id(param, m_k.f_value));
      value.keyword = m_src.str(m_src.node_text(ts_node_child_by_field_id(param, m_k.f_name)));
      defaults.push_back(std::move(value));
    }
  }
  info.decorators = std::move(decorators);
  info.params = std::move(param_texts);
  info.param_defaults = std::move(defaults);
  info.none_passthrough = none_passthrough(node, param_names);
  if (m_ctx.function < 0 && m_ctx.klass < 0)
    note_helper_predicate(node, m_src.node_text(ts_node_child_by_field_id(node, m_k.f_name)));
  m_out.functions.push_back(std::move(info));
  push_frame(node, true);
  m_imports.push_scope(ScopeKind::function);
  shadow_parameters(params);
  m_ctx.function = static_cast<std::int32_t>(m_out.functions.size() - 1);
  m_ctx.loop = -1;
  if (no_grad) m_ctx.guards |= guard_bit(Guard::no_grad);
}

void Walker::enter_class(TSNode node) {
  ClassInfo info;
  info.name = m_src.str(m_src.node_text(ts_node_child_by_field_id(node, m_k.f_name)));
  info.qualname = m_src.str(join_qualname(enclosing_qualname(m_out, m_ctx), info.name));
  info.parent_function = m_ctx.function;
  info.at = m_src.span(node);
  const TSNode bases = ts_node_child_by_field_id(node, m_k.f_superclasses);
  const std::uint32_t count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
  std::vector<QualifiedName> base_names;
  std::vector<FactString> base_texts;
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode base = ts_node_named_child(bases, i);
    if (m_src.is(base, m_k.keyword_argument)) continue;  // metaclass=...
    const auto chain = m_src.dotted_chain(base);
    if (!chain) continue;
    QualifiedName resolved = m_imports.resolve(*chain);
    base_names.push_back(m_src.name(resolved.empty() ? QualifiedName::from_dotted(*chain) : resolved));
    base_texts.push_back(m_src.str(*chain));
  }
  info.bases = std::move(base_names);
  info.base_texts = std::move(base_texts);
  m_out.classes.push_back(std::move(info));
  push_frame(node, true);
  m_imports.push_scope(ScopeKind::klass);
  m_ctx.klass = static_cast<std::int32_t>(m_out.classes.size() - 1);
}

// The names a for loop or a comprehension's first `for` clause binds: "t", "i,t" (`for i, t in ...`).
std::string Walker::loop_targets(TSNode node, LoopKind kind) const {
  TSNode clause = node;
  if (kind == LoopKind::while_loop) return {};
  if (kind == LoopKind::comprehension) {
    clause = TSNode{};
    const std::uint32_t count = ts_node_named_child_count(node);
    for (std::uint32_t i = 0; i < count && ts_node_is_null(clause); ++i) {
      const TSNode child = ts_node_named_child(node, i);
      if (m_src.is(child, m_k.for_in_clause)) clause = child;
    }
    if (ts_node_is_null(clause)) return {};
  }
  const TSNode left = ts_node_child_by_field_id(clause, m_k.f_left);
  if (ts_node_is_null(left)) return {};
  if (m_src.is(left, m_k.identifier)) return std::string(m_src.node_text(left));
  if (!m_src.is(left, m_k.pattern_list) && !m_src.is(left, m_k.tuple_pattern)) return {};
  std::string out;
  const std::uint32_t count = ts_node_named_child_count(left);
  for (std::uint32_t i = 0; i < count && out.size() < 120; ++i) {
    const TSNode name = ts_node_named_child(left, i);
    if (!m_src.is(name, m_k.identifier)) continue;
    if (!out.empty()) out += ',';
    out += m_src.node_text(name);
  }
  return out;
}

void Walker::enter_loop(TSNode node, LoopKind kind) {
  LoopInfo info;
  info.kind = kind;
  info.parent = m_ctx.loop;
  info.function = m_ctx.function;
  info.at = m_src.span(node);
  TSNode iter = ts_node_child_by_field_id(node, kind == LoopKind::while_loop ? m_k.f_condition : m_k.f_right);
  if (!ts_node_is_null(iter)) info.iter_text = m_src.capped(iter, 80);
  info.target_text = m_src.str(loop_targets(node, kind));
  m_out.loops.push_back(std::move(info));
  push_frame(node);
  m_ctx.loop = static_cast<std::int32_t>(m_out.loops.size() - 1);
}

void Walker::enter_lambda(TSNode node) {
  push_frame(node, true);
  m_imports.push_scope(ScopeKind::function);
  shadow_parameters(ts_node_child_by_field_id(node, m_k.f_parameters));
  if (is_step_closure_lambda(node)) m_ctx.guards |= guard_bit(Guard::step_closure);
}

}  // namespace tr2audit::facts
