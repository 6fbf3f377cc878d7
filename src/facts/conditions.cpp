// Condition terms: the and-joined tests of an if/elif condition, kept as data so that the program
// stage can tell availability flags and opt-in options apart from ordinary branches. An explicit
// work list, no recursion: conditions can be long `a and b and c ...` chains.
#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::facts {

std::vector<ConditionTerm> Walker::condition_terms(TSNode condition) const {
  std::vector<ConditionTerm> terms;
  std::vector<std::pair<TSNode, bool>> work{{condition, false}};  // (node, negated)
  while (!work.empty()) {
    auto [node, negated] = work.back();
    work.pop_back();
    node = m_src.unwrap_parens(node);
    if (ts_node_is_null(node)) continue;
    const TSSymbol kind = ts_node_symbol(node);
    if (kind == m_k.boolean_operator) {
      const std::string_view op = m_src.node_text(ts_node_child_by_field_id(node, m_k.f_operator));
      if (negated) return {};  // `not (a and b)` / `not (a or b)`: no term holds on its own
      // `a and (b or c)`: the `or` gives no term, but `a` still holds wherever the branch runs (the list
      // is then partial: what reads the else side or the rest after a return checks conjunct_count).
      if (op != "and") continue;
      work.emplace_back(ts_node_child_by_field_id(node, m_k.f_right), false);
      work.emplace_back(ts_node_child_by_field_id(node, m_k.f_left), false);
    } else if (kind == m_k.not_operator) {
      work.emplace_back(ts_node_named_child(node, 0), !negated);
    } else if (kind == m_k.comparison_operator && ts_node_named_child_count(node) == 2) {
      const TSNode left = m_src.unwrap_parens(ts_node_named_child(node, 0));
      const TSNode right = m_src.unwrap_parens(ts_node_named_child(node, 1));
      const std::string_view op = m_src.node_text(ts_node_child(node, 1));
      // `deepspeed_config() is not None`: a call's result compared, named by the call.
      auto name = m_src.keyed_chain(left);
      bool folded = false;
      // `opt_lower == "fusedsgd"` where `opt_lower` holds a string form of `args.opt`: a test of `args.opt`.
      const StringForm* form = m_src.is(left, m_k.identifier) ? string_form_of(m_src.node_text(left)) : nullptr;
      if (form && form->split_list) continue;  // a list compared: nothing said of the name
      if (form) {
        name = form->source;
        folded = form->folded;
      }
      const auto with_form = [form](ConditionTerm term) {
        if (form) {
          term.split_separator = form->separator;
          term.split_part = form->part;
        }
        return term;
      };
      if (!name && m_src.is(left, m_k.call)) {
        if (auto folded_name = case_folded_name(left)) {  // `args.optimizer.lower() == "adam8bit"`
          name = std::move(folded_name);
          folded = true;
        } else if (auto fn = m_src.dotted_chain(ts_node_child_by_field_id(left, m_k.f_function))) {
          name = *fn + "()";
        }
      }
      // `cfg.ffn_type in ("moe", "dmoe")` / `not in [...]`: a membership test on a collection of literals.
      const bool not_in = op == "not" && m_src.node_text(ts_node_child(node, 2)) == "in";
      // ... or on a name bound to one (`eight_bit_names = [...]` before `if cls.__name__ in eight_bit_names:`).
      const TSNode collection = name && (op == "in" || op == "not in" || not_in) && m_src.is(right, m_k.identifier)
                                    ? collection_of(m_src.node_text(right))
                                    : right;
      if (name && (op == "in" || op == "not in" || not_in) && !ts_node_is_null(collection) &&
          (m_src.is(collection, m_k.tuple) || m_src.is(collection, m_k.list) || m_src.is(collection, m_k.set))) {
        if (auto values = literal_members(collection)) {
          terms.push_back(with_form(
              ConditionTerm{m_src.str(*name), m_src.str(*values), negated != (op != "in"), false, true, folded}));
        }
        continue;
      }
      // ... or on an imported name that holds no literals here (`in ffns_with_megablocks`, a registry the
      // repo fills with `.register("mb_moe", ...)` elsewhere): the program reads its members.
      if (name && (op == "in" || op == "not in" || not_in) &&
          (m_src.is(right, m_k.identifier) || m_src.is(right, m_k.attribute))) {
        const QualifiedName collection_name = resolve(right);
        if (!collection_name.empty()) {
          ConditionTerm term{m_src.str(*name), collection_name.dotted(), negated != (op != "in"), false, true, folded};
          term.registry = true;
          terms.push_back(with_form(std::move(term)));
        }
        continue;
      }
      // `"fused" in opt_lower`: a literal the tested string value contains.
      // (`"fused" in args.opt` too, and a keyed read, `"mamba" in os.environ["RWKV_MY_TESTING"]`; a bare local
      // only when it holds a string form.)
      if ((op == "in" || op == "not in" || not_in) && m_src.literal(left).kind == LiteralKind::string &&
          (m_src.is(right, m_k.identifier) || m_src.is(right, m_k.attribute) || m_src.is(right, m_k.subscript))) {
        std::optional<StringForm> tested;
        if (m_src.is(right, m_k.attribute) || m_src.is(right, m_k.subscript)) {
          if (auto dotted = m_src.keyed_chain(right)) tested = StringForm{.source = std::move(*dotted)};
        } else if (const StringForm* held = string_form_of(m_src.node_text(right))) {
          tested = *held;
        }
        if (tested && !tested->split_list) {
          ConditionTerm term{m_src.str(tested->source),
                             m_src.literal(left).value,
                             negated != (op != "in"),
                             false,
                             true,
                             tested->folded};
          term.contains = true;
          term.split_separator = tested->separator;
          term.split_part = tested->part;
          terms.push_back(std::move(term));
        }
        continue;
      }
      const Argument value = m_src.literal(right);
      const bool literal = value.kind == LiteralKind::string || value.kind == LiteralKind::integer ||
                           value.kind == LiteralKind::floating || value.kind == LiteralKind::boolean ||
                           value.kind == LiteralKind::null;
      if (name && folded && value.kind != LiteralKind::string) continue;  // only a string compares folded
      // `if cfg.vis_period > 0:`, `if self.alpha_mse > 0.0:`
      if (name && !form && op == ">" && (value.kind == LiteralKind::integer || value.kind == LiteralKind::floating)) {
        terms.push_back(ConditionTerm{m_src.str(*name), value.value, negated, true});
        continue;
      }
      // `weight.dtype == torch.uint8`: a comparison with a torch constant, kept by its dotted name.
      const bool torch_constant =
          value.kind == LiteralKind::name && starts_with(value.value, "torch.") && (op == "==" || op == "!=");
      if (name && !form && torch_constant) {
        terms.push_back(ConditionTerm{m_src.str(*name), value.value, negated != (op == "!=")});
        continue;
      }
      // `self.cfg.rl is RLType.EBFT`: a comparison with an enum member, kept by its dotted name.
      if (name && !form && !folded && enum_member(value) &&
          (op == "==" || op == "!=" || op == "is" || op == "is not")) {
        terms.push_back(ConditionTerm{m_src.str(*name), value.value, negated != (op == "!=" || op == "is not")});
        continue;
      }
      if (!name || !literal || (op != "==" && op != "!=" && op != "is" && op != "is not")) continue;
      terms.push_back(
          with_form(ConditionTerm{m_src.str(*name), value.kind == LiteralKind::null ? m_src.str("None") : value.value,
                                  negated != (op == "!=" || op == "is not"), false, false, folded}));
    } else if (kind == m_k.false_ || kind == m_k.none) {
      if (!negated) terms.push_back(ConditionTerm{"False", {}, false});
    } else if (kind == m_k.call) {
      const TSNode fn = ts_node_child_by_field_id(node, m_k.f_function);
      const auto name = m_src.dotted_chain(fn);
      if (!name) continue;
      // `hasattr(param, "ds_numel")`: which attribute it asks for says whose object it expects.
      const TSNode args = ts_node_child_by_field_id(node, m_k.f_arguments);
      if (*name == "hasattr" && !ts_node_is_null(args) && ts_node_named_child_count(args) == 2) {
        const auto object = m_src.dotted_chain(ts_node_named_child(args, 0));
        const Argument attribute = m_src.literal(ts_node_named_child(args, 1));
        if (object && attribute.kind == LiteralKind::string) {
          terms.push_back(
              ConditionTerm{m_src.str("hasattr(" + *object + ", \"" + attribute.value + "\")"), {}, negated});
          continue;
        }
      }
      // `if exists(self.to_mixture):` with `def exists(val): return val is not None` in the file: a None test.
      if (std::find(m_none_tests.begin(), m_none_tests.end(), std::string_view(*name)) != m_none_tests.end() &&
          !ts_node_is_null(args) && ts_node_named_child_count(args) == 1) {
        if (const auto tested = m_src.dotted_chain(ts_node_named_child(args, 0))) {
          terms.push_back(ConditionTerm{m_src.str(*tested), m_src.str("None"), !negated});
          continue;
        }
      }
      terms.push_back(ConditionTerm{m_src.str(*name + "()"), {}, negated});
    } else if (const auto name = m_src.keyed_chain(node)) {  // `if config["logging"]["use_wandb"]:` too
      terms.push_back(ConditionTerm{m_src.str(*name), {}, negated});
    } else if (auto asked = deepspeed_query(node)) {
      terms.push_back(ConditionTerm{m_src.str(std::move(*asked)), {}, negated});
    }
  }
  return terms;
}

// `DistributedBackend(accelerator).is_zero3`: a property of a built object that asks whether the run is a
// DeepSpeed one, named `DistributedBackend().is_zero3` (program/options reads DeepSpeed runs as opted into).
// Only such properties: what another built object's attribute holds says nothing a name can look up.
std::optional<std::string> Walker::deepspeed_query(TSNode node) const {
  if (!m_src.is(node, m_k.attribute)) return std::nullopt;
  const std::string attribute = to_lower(m_src.node_text(ts_node_child_by_field_id(node, m_k.f_attribute)));
  if (attribute.find("zero3") == std::string::npos && attribute.find("deepspeed") == std::string::npos)
    return std::nullopt;
  const TSNode object = m_src.unwrap_parens(ts_node_child_by_field_id(node, m_k.f_object));
  if (!m_src.is(object, m_k.call)) return std::nullopt;
  const auto built = m_src.dotted_chain(ts_node_child_by_field_id(object, m_k.f_function));
  if (!built) return std::nullopt;
  return *built + "()." + std::string(m_src.node_text(ts_node_child_by_field_id(node, m_k.f_attribute)));
}

// The string form a value takes of a name: `args.opt.lower()` (case-folded), `.strip()` (as is), `str(x)`,
// `name.split("_")` (a list), `parts[-1]` of such a list, and any of these on a local that holds a form. Nothing
// for anything else.
std::optional<Walker::StringForm> Walker::string_form(TSNode value) const {
  value = m_src.unwrap_parens(value);
  if (ts_node_is_null(value)) return std::nullopt;
  const auto of = [&](TSNode base) -> std::optional<StringForm> {
    base = m_src.unwrap_parens(base);
    if (m_src.is(base, m_k.identifier)) {
      if (const StringForm* held = string_form_of(m_src.node_text(base))) return *held;
    }
    auto name = m_src.keyed_chain(base);
    if (!name) return std::nullopt;
    StringForm form;
    form.source = std::move(*name);
    return form;
  };
  if (m_src.is(value, m_k.subscript)) {  // `opt_split[-1]`
    const Argument index = m_src.literal(ts_node_child_by_field_id(value, m_k.f_subscript));
    auto form = of(ts_node_child_by_field_id(value, m_k.f_value));
    if (!form || !form->split_list || index.kind != LiteralKind::integer) return std::nullopt;
    const std::string_view text = m_src.node_text(ts_node_child_by_field_id(value, m_k.f_subscript));
    if (text != "-1" && (text.size() != 1 || text[0] < '0' || text[0] > '7')) return std::nullopt;
    form->part = static_cast<std::int8_t>(text == "-1" ? -1 : text[0] - '0');
    form->split_list = false;
    return form;
  }
  if (!m_src.is(value, m_k.call)) return std::nullopt;
  const TSNode fn = ts_node_child_by_field_id(value, m_k.f_function);
  const TSNode args = ts_node_child_by_field_id(value, m_k.f_arguments);
  if (ts_node_is_null(args)) return std::nullopt;
  const std::uint32_t count = ts_node_named_child_count(args);
  if (m_src.is(fn, m_k.identifier) && m_src.node_text(fn) == "str" && count == 1) {  // `str(args.precision)`
    auto form = of(ts_node_named_child(args, 0));
    if (form && form->split_list) return std::nullopt;
    return form;
  }
  if (!m_src.is(fn, m_k.attribute)) return std::nullopt;
  const std::string_view method = m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute));
  auto form = of(ts_node_child_by_field_id(fn, m_k.f_object));
  if (!form || form->split_list) return std::nullopt;
  if ((method == "lower" || method == "upper" || method == "casefold") && count == 0) {
    form->folded = true;
    return form;
  }
  if (method == "strip" && count == 0) return form;
  if (method == "split" && count == 1 && form->separator == 0) {  // one character that is no letter or digit
    const Argument separator = m_src.literal(ts_node_named_child(args, 0));
    if (separator.kind != LiteralKind::string || separator.value.size() != 1 ||
        std::isalnum(static_cast<unsigned char>(separator.value.view()[0])))
      return std::nullopt;
    form->separator = separator.value.view()[0];
    form->split_list = true;
    return form;
  }
  return std::nullopt;
}

void Walker::note_string_form(std::string_view name, TSNode value) {
  std::optional<StringForm> form = ts_node_is_null(value) ? std::nullopt : string_form(value);
  const auto known = std::find_if(m_string_forms.begin(), m_string_forms.end(),
                                  [&](const StringForm& f) { return f.function == m_ctx.function && f.name == name; });
  if (known != m_string_forms.end()) m_string_forms.erase(known);
  if (!form) return;
  form->function = m_ctx.function;
  form->name = name;
  form->branch = m_ctx.branch;
  m_string_forms.push_back(std::move(*form));
}

const Walker::StringForm* Walker::string_form_of(std::string_view name) const {
  for (const StringForm& form : m_string_forms) {
    if (form.function != m_ctx.function || form.name != name) continue;
    for (std::int32_t up = m_ctx.branch;; up = m_out.branches[static_cast<std::size_t>(up)].parent) {
      if (up == form.branch) return &form;
      if (up < 0 || static_cast<std::size_t>(up) >= m_out.branches.size()) return nullptr;
    }
  }
  return nullptr;
}

// `RLType.EBFT`: a dotted name kept as a name (no call), compared like a literal.
bool Walker::enum_member(const Argument& value) {
  return value.kind == LiteralKind::name && names_enum_member(value.value.view());
}

// `args.optimizer.lower()` / `.upper()` / `.casefold()` with no arguments on a dotted or keyed name: that
// name (the call only changes the case of what is compared); nothing for any other call.
std::optional<std::string> Walker::case_folded_name(TSNode call) const {
  const TSNode fn = ts_node_child_by_field_id(call, m_k.f_function);
  const TSNode args = ts_node_child_by_field_id(call, m_k.f_arguments);
  if (!m_src.is(fn, m_k.attribute) || ts_node_is_null(args) || ts_node_named_child_count(args) != 0)
    return std::nullopt;
  const std::string_view method = m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute));
  if (method != "lower" && method != "upper" && method != "casefold") return std::nullopt;
  return m_src.keyed_chain(ts_node_child_by_field_id(fn, m_k.f_object));
}

// The literals of a tuple/list/set (strings, integers, booleans, None) joined by k_member_separator; nothing
// when an element is not a literal or there are none.
std::optional<std::string> Walker::literal_members(TSNode collection) const {
  const std::uint32_t count = ts_node_named_child_count(collection);
  if (count == 0) return std::nullopt;
  std::string out;
  for (std::uint32_t i = 0; i < count; ++i) {
    const Argument value = m_src.literal(ts_node_named_child(collection, i));
    if (value.kind != LiteralKind::string && value.kind != LiteralKind::integer && value.kind != LiteralKind::boolean &&
        value.kind != LiteralKind::null && !enum_member(value))
      return std::nullopt;
    if (i > 0) out += k_member_separator;
    out += value.kind == LiteralKind::null ? std::string("None") : std::string(value.value.view());
  }
  return out;
}

// `a or b or c` where each side is one term: the terms, any of which takes the branch; else nothing.
std::vector<ConditionTerm> Walker::disjunction_terms(TSNode condition) const {
  std::vector<ConditionTerm> out;
  std::vector<TSNode> work{condition};  // an `or` chain, flattened with a work list
  bool chain = false;
  while (!work.empty()) {
    const TSNode node = m_src.unwrap_parens(work.back());
    work.pop_back();
    if (ts_node_is_null(node)) return {};
    if (m_src.is(node, m_k.boolean_operator) &&
        m_src.node_text(ts_node_child_by_field_id(node, m_k.f_operator)) == "or") {
      chain = true;
      work.push_back(ts_node_child_by_field_id(node, m_k.f_right));
      work.push_back(ts_node_child_by_field_id(node, m_k.f_left));
      continue;
    }
    std::vector<ConditionTerm> one = condition_terms(node);
    if (one.size() != 1) return {};
    out.push_back(std::move(one.front()));
  }
  return chain ? out : std::vector<ConditionTerm>();
}

std::vector<ConditionTerm> Walker::terms_after_return(TSNode condition, const std::vector<ConditionTerm>& terms,
                                                      bool& any_of) const {
  any_of = false;
  std::vector<ConditionTerm> after;
  // `if not (cfg.tiled_mlp and cfg.use_scattermoe): return`: the rest runs only where every conjunct holds,
  // so each term it gives holds there as written (a conjunct that gives none holds too, but says nothing).
  const TSNode bare = m_src.unwrap_parens(condition);
  if (terms.empty() && m_src.is(bare, m_k.not_operator)) {
    const TSNode inner = m_src.unwrap_parens(ts_node_named_child(bare, 0));
    if (!ts_node_is_null(inner) && m_src.is(inner, m_k.boolean_operator) &&
        m_src.node_text(ts_node_child_by_field_id(inner, m_k.f_operator)) == "and")
      return condition_terms(inner);
    return after;
  }
  if (terms.size() == 1 && conjunct_count(condition) == 1) {
    after = terms;
  } else if (terms.empty()) {  // `if a or b: return`: the rest runs when none holds
    after = disjunction_terms(condition);
  } else if (terms.size() == conjunct_count(condition)) {
    // `if not cfg.quantize_experts and not cfg.target_params: return`: the rest runs when any term fails.
    // Only when every conjunct gave its term: one left out could be the one that fails.
    after = terms;
    any_of = true;
  }
  for (auto& term : after) {
    if (term.greater) return {};
    term.negated = !term.negated;
  }
  return after;
}

std::size_t Walker::conjunct_count(TSNode condition) const {
  std::size_t count = 0;
  std::vector<TSNode> work{condition};
  while (!work.empty()) {
    const TSNode node = m_src.unwrap_parens(work.back());
    work.pop_back();
    if (ts_node_is_null(node)) continue;
    if (m_src.is(node, m_k.boolean_operator) &&
        m_src.node_text(ts_node_child_by_field_id(node, m_k.f_operator)) == "and") {
      work.push_back(ts_node_child_by_field_id(node, m_k.f_right));
      work.push_back(ts_node_child_by_field_id(node, m_k.f_left));
    } else {
      ++count;
    }
  }
  return count;
}

bool Walker::recovers_from_failure(std::string_view caught) {
  // `except RuntimeError as e:` / `except (RuntimeError, torch._C._LinAlgError):`
  if (const auto as = caught.find(" as "); as != std::string_view::npos) caught = caught.substr(0, as);
  caught = trim(caught);
  if (caught.size() >= 2 && caught.front() == '(' && caught.back() == ')') caught = caught.substr(1, caught.size() - 2);
  bool any = false;
  while (!caught.empty()) {
    const auto comma = caught.find(',');
    std::string_view name = trim(caught.substr(0, comma));
    caught = comma == std::string_view::npos ? std::string_view() : caught.substr(comma + 1);
    if (name.empty()) continue;
    name = name.substr(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
    if (name != "RuntimeError" && name != "LinAlgError" && name != "_LinAlgError" && name != "FloatingPointError" &&
        name != "ArithmeticError" && name != "ZeroDivisionError" && name != "OverflowError")
      return false;
    any = true;
  }
  return any;
}

bool Walker::else_only_raises(TSNode if_statement) const {
  const std::uint32_t count = ts_node_named_child_count(if_statement);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode clause = ts_node_named_child(if_statement, i);
    if (!m_src.is(clause, m_k.else_clause)) continue;
    const TSNode body = ts_node_child_by_field_id(clause, m_k.f_body);
    const TSNode first = ts_node_named_child(body, 0);
    return !ts_node_is_null(first) && m_src.is(first, m_k.raise_statement);
  }
  return false;
}

bool Walker::then_only_messages(TSNode if_statement) const {
  if (!ts_node_is_null(ts_node_child_by_field_id(if_statement, m_k.f_alternative))) return false;
  const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
  const std::uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  bool any = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode statement = ts_node_named_child(body, i);
    if (m_src.is(statement, m_k.comment) || std::string_view(ts_node_type(statement)) == "pass_statement") continue;
    if (!m_src.is(statement, m_k.expression_statement)) return false;
    const TSNode call = ts_node_named_child(statement, 0);
    if (ts_node_is_null(call) || !m_src.is(call, m_k.call)) return false;
    const std::string_view fn = m_src.node_text(ts_node_child_by_field_id(call, m_k.f_function));
    const std::string_view last = fn.substr(fn.rfind('.') == std::string_view::npos ? 0 : fn.rfind('.') + 1);
    const bool reports = fn == "print" || fn == "warnings.warn" || ends_with(fn, "_print") || last == "info" ||
                         last == "warning" || last == "warn" || last == "debug" || last == "log" ||
                         last == "warning_once" || last == "info_once";
    if (!reports) return false;
    any = true;
  }
  return any;
}

// `if not math.isfinite(loss_value): print(f"Loss is {loss.item()}"); sys.exit(1)`: the body ends the run with a
// failure (a `raise`, or `sys.exit`/`exit`/`quit`/`os._exit` with a non-zero code or a message), so it runs once,
// when the run fails. (`exit(0)` after a finished task is no failure.)
bool Walker::then_ends_in_failure(TSNode if_statement) const {
  const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
  const std::uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (std::uint32_t i = count; i-- > 0;) {
    const TSNode statement = ts_node_named_child(body, i);
    if (m_src.is(statement, m_k.comment)) continue;
    if (m_src.is(statement, m_k.raise_statement)) return true;
    const TSNode call = process_exit(statement);
    if (ts_node_is_null(call)) return false;
    const TSNode args = ts_node_child_by_field_id(call, m_k.f_arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return false;
    const Argument code = m_src.literal(ts_node_named_child(args, 0));
    return !(code.kind == LiteralKind::integer && code.value == "0") && code.kind != LiteralKind::null;
  }
  return false;
}

TSNode Walker::process_exit(TSNode statement) const {
  if (!m_src.is(statement, m_k.expression_statement)) return {};
  const TSNode call = ts_node_named_child(statement, 0);
  if (ts_node_is_null(call) || !m_src.is(call, m_k.call)) return {};
  const std::string_view fn = m_src.node_text(ts_node_child_by_field_id(call, m_k.f_function));
  return fn == "sys.exit" || fn == "exit" || fn == "quit" || fn == "os._exit" ? call : TSNode{};
}

bool Walker::export_only(TSNode condition) const {
  for (const TSNode node : operands(condition, "or")) {
    if (!m_src.is(node, m_k.call)) return false;
    const std::string callee = resolve(ts_node_child_by_field_id(node, m_k.f_function)).dotted();
    if (callee != "torch.jit.is_scripting" && callee != "torch.jit.is_tracing" &&
        callee != "torch.onnx.is_in_onnx_export")
      return false;
  }
  return true;
}

bool Walker::returns_early(TSNode if_statement) const {
  const std::uint32_t count = ts_node_named_child_count(if_statement);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSSymbol kind = ts_node_symbol(ts_node_named_child(if_statement, i));
    if (kind == m_k.else_clause || kind == m_k.elif_clause) return false;
  }
  const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
  const std::uint32_t statements = ts_node_named_child_count(body);
  return statements > 0 && m_src.is(ts_node_named_child(body, statements - 1), m_k.return_statement);
}

// `if not is_te_available(): return` / `if not torch.cuda.is_available(): return`: the guards the rest
// of the block runs under (the library is there, CUDA is there); `if not self.should_log(step): return`:
// the rest runs every N steps.
std::uint16_t Walker::returns_unless_available(TSNode if_statement, TSNode condition) const {
  condition = m_src.unwrap_parens(condition);
  if (!m_src.is(condition, m_k.not_operator)) return 0;
  constexpr std::uint16_t k_after =
      guard_bit(Guard::import_error_fallback) | guard_bit(Guard::cuda_available) | guard_bit(Guard::periodic);
  const std::uint16_t guards = condition_guards(ts_node_named_child(condition, 0)) & k_after;
  return guards != 0 && returns_early(if_statement) ? guards : 0;
}

}  // namespace tr2audit::facts

namespace tr2audit::facts {
namespace {

bool names_training_mode(std::string_view name) {
  return name == "self.training" || (name.size() > 9 && name.substr(name.size() - 9) == ".training");
}

// KV caches exist only while decoding: `if self.kv_cache is not None:`, `if use_cache:`, `if
// self.caches_are_enabled():`, and the decoding state SSM layers take (`if inference_params is not None:`).
bool names_kv_cache(std::string_view name) {
  const auto dot = name.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  return last.find("kv_cache") != std::string_view::npos || last.find("cache_enabled") != std::string_view::npos ||
         last == "use_cache" || last.find("past_key_value") != std::string_view::npos || last == "inference_params" ||
         last == "inference_cache" || last.find("caches_are_enabled") != std::string_view::npos || last == "kv_caches";
}

// `if self.merged: self.unmerge()` in an adapter layer's forward (peft's tuner layers, litgpt's LoRA): adapter
// weights are merged into the base layer for inference or export; a training run keeps them apart.
bool names_merged_adapter(std::string_view name) {
  return name == "self.merged";
}

}  // namespace

std::pair<std::uint16_t, std::uint16_t> Walker::training_mode_guards(const std::vector<ConditionTerm>& terms,
                                                                     TSNode if_statement, bool& early_return) const {
  std::uint16_t then_guards = 0, else_guards = 0;
  early_return = false;
  const std::uint16_t not_training = guard_bit(Guard::not_training);
  for (const ConditionTerm& term : terms) {
    if (names_training_mode(term.name) && term.equals.empty()) {
      if (term.negated) {
        then_guards |= not_training;
      } else if (terms.size() == 1) {
        else_guards |= not_training;
        bool has_else = false;
        const std::uint32_t count = ts_node_named_child_count(if_statement);
        for (std::uint32_t i = 0; i < count; ++i) {
          const TSSymbol kind = ts_node_symbol(ts_node_named_child(if_statement, i));
          has_else |= kind == m_k.else_clause || kind == m_k.elif_clause;
        }
        const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
        const std::uint32_t statements = ts_node_named_child_count(body);
        const TSNode last = statements ? ts_node_named_child(body, statements - 1) : TSNode{};
        early_return = !has_else && !ts_node_is_null(last) && m_src.is(last, m_k.return_statement);
      }
    }
    const bool present = term.equals.empty() ? !term.negated : (term.equals == "None" && term.negated);
    if ((names_kv_cache(term.name) || (names_merged_adapter(term.name) && term.equals.empty())) && present)
      then_guards |= not_training;
  }
  return {then_guards, else_guards};
}

}  // namespace tr2audit::facts
