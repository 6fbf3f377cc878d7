// Host values: tensors built on the host from Python values (`torch.tensor([m.shape[-1] for m in
// masks])`, `torch.as_tensor(lengths)` without a device), and what is computed from them. Reading
// such a tensor (`.item()`, `.tolist()`, one-argument `torch.where`) never waits for a device, so it
// is neither a device sync nor a graph break. Tracked per function by name, in source order. Also: which
// values are Python numbers as written (`Walker::scalar_value`, facts::Argument::scalar).
#include <algorithm>

#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

constexpr int k_max_steps = 16;  // expression chains are short; the loop below never recurses

bool host_constructor(std::string_view dotted) {
  // Factories without `device=` build on the CPU (the caller checks moves_to_device first): a
  // `torch.randint(0, n, (1,)).item()` in a dropout reads a host value, not the device.
  for (std::string_view name :
       {"torch.tensor",    "torch.as_tensor",  "torch.from_numpy", "torch.LongTensor", "torch.FloatTensor",
        "torch.IntTensor", "torch.BoolTensor", "torch.Tensor",     "torch.rand",       "torch.randn",
        "torch.randint",   "torch.randperm",   "torch.arange",     "torch.linspace",   "torch.logspace",
        "torch.zeros",     "torch.ones",       "torch.full",       "torch.empty",      "torch.eye"}) {
    if (dotted == name) return true;
  }
  return false;
}

}  // namespace

bool Walker::has_keyword_argument(TSNode call, std::string_view keyword) const {
  const TSNode args = ts_node_child_by_field_id(call, m_k.f_arguments);
  if (ts_node_is_null(args) || !m_src.is(args, m_k.argument_list)) return false;
  const std::uint32_t count = ts_node_named_child_count(args);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(args, i);
    if (m_src.is(arg, m_k.keyword_argument) && m_src.node_text(ts_node_child_by_field_id(arg, m_k.f_name)) == keyword)
      return true;
  }
  return false;
}

bool Walker::moves_to_device(TSNode call) const {
  return has_keyword_argument(call, "device");
}

bool Walker::host_value(TSNode expr) const {
  for (int step = 0; step < k_max_steps && !ts_node_is_null(expr); ++step) {
    expr = m_src.unwrap_parens(expr);
    const TSSymbol kind = ts_node_symbol(expr);
    if (kind == m_k.identifier) {
      return m_host_names.count({m_ctx.function, std::string(m_src.node_text(expr))}) > 0;
    }
    if (kind == m_k.comparison_operator || kind == m_k.binary_operator) {
      // `sizes == s`, `sizes + 1`: the tensor operand's place; `(1 - labels)`: the operand after a number.
      const TSNode left = m_src.unwrap_parens(ts_node_named_child(expr, 0));
      const bool number = !ts_node_is_null(left) && (m_src.is(left, m_k.integer) || m_src.is(left, m_k.float_));
      expr = number && ts_node_named_child_count(expr) > 1 ? ts_node_named_child(expr, 1) : left;
    } else if (kind == m_k.subscript || kind == m_k.attribute) {
      expr = ts_node_child_by_field_id(expr, kind == m_k.subscript ? m_k.f_value : m_k.f_object);
    } else if (kind == m_k.call) {
      if (moves_to_device(expr)) return false;
      // `tokenizer(texts, return_tensors="pt")`, `processor(images=x, return_tensors="pt")["pixel_values"]`: a
      // Hugging Face tokenizer or processor builds its tensors on the CPU (until `.to(device)`, above the call).
      if (has_keyword_argument(expr, "return_tensors")) return true;
      const TSNode fn = m_src.unwrap_parens(ts_node_child_by_field_id(expr, m_k.f_function));
      const QualifiedName callee = resolve(fn);
      if (host_constructor(callee.dotted())) return true;
      if (!callee.empty()) {
        // `mask = np.zeros(shape, dtype=bool)`: a numpy array lives on the host whatever it was made from; so does
        // a pandas frame (`df = pd.DataFrame({...})`).
        if (callee.first_segment() == "numpy" || callee.first_segment() == "pandas") return true;
        if (callee.first_segment() != "torch") return false;
        const TSNode args = ts_node_child_by_field_id(expr, m_k.f_arguments);  // torch.unique(sizes)
        if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return false;
        expr = ts_node_named_child(args, 0);
      } else if (m_src.is(fn, m_k.attribute)) {
        const std::string_view method = m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute));
        if (method == "cuda" || method == "to" || method == "pin_memory") return false;
        expr = ts_node_child_by_field_id(fn, m_k.f_object);  // sizes.argsort()
      } else {
        return false;
      }
    } else {
      return false;
    }
  }
  return false;
}

// The name's new state takes effect once the value is left (Walker::on_leave): in `times =
// list(times.int().tolist())` the read on the right is of the old `times`.
void Walker::note_host_name(TSNode left, TSNode right) {
  if (ts_node_is_null(left) || !m_src.is(left, m_k.identifier)) return;
  std::pair<std::int32_t, std::string> key{m_ctx.function, std::string(m_src.node_text(left))};
  const bool host = !ts_node_is_null(right) && host_value(right);
  if (ts_node_is_null(right)) return apply_host_name(std::move(key), host);
  m_pending_host.push_back(PendingHostName{right, std::move(key), host});
}

void Walker::apply_host_name(std::pair<std::int32_t, std::string> key, bool host) {
  if (host)
    m_host_names.insert(std::move(key));
  else
    m_host_names.erase(key);
}

void Walker::settle_host_names(TSNode left_node) {
  while (!m_pending_host.empty() && ts_node_eq(m_pending_host.back().value, left_node)) {
    PendingHostName pending = std::move(m_pending_host.back());
    m_pending_host.pop_back();
    apply_host_name(std::move(pending.key), pending.host);
  }
}

// `loss.item()`, `float(x)`, `len(batch)`, `round(t, 2)`, `math.sqrt(x)`, `3e-4`, `-1`, a local bound to such a
// value, `optimizer.param_groups[0]["lr"]`, and a sum, difference, product or quotient of two of these.
bool Walker::scalar_value(TSNode value) const {
  const auto leaf = [&](TSNode node) {
    node = m_src.unwrap_parens(node);
    if (ts_node_is_null(node)) return false;
    if (m_src.is(node, m_k.integer) || m_src.is(node, m_k.float_)) return true;
    if (m_src.is(node, m_k.unary_operator)) {
      const TSNode operand = ts_node_named_child(node, 0);
      return m_src.is(operand, m_k.integer) || m_src.is(operand, m_k.float_);
    }
    if (m_src.is(node, m_k.identifier)) {
      const std::pair<std::int32_t, std::string_view> local{m_ctx.function, m_src.node_text(node)};
      return std::find(m_scalar_locals.begin(), m_scalar_locals.end(), local) != m_scalar_locals.end();
    }
    if (m_src.is(node, m_k.subscript)) return m_src.node_text(node).find(".param_groups[") != std::string_view::npos;
    if (!m_src.is(node, m_k.call)) return false;
    const TSNode fn = ts_node_child_by_field_id(node, m_k.f_function);
    const std::string_view text = m_src.node_text(fn);
    if (m_src.is(fn, m_k.attribute))
      return m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute)) == "item" || starts_with(text, "math.");
    return text == "float" || text == "int" || text == "len" || text == "round";
  };
  value = m_src.unwrap_parens(value);
  if (m_src.is(value, m_k.binary_operator)) {
    const std::string_view op = m_src.node_text(ts_node_child_by_field_id(value, m_k.f_operator));
    if (op != "+" && op != "-" && op != "*" && op != "/" && op != "//") return false;
    return leaf(ts_node_child_by_field_id(value, m_k.f_left)) && leaf(ts_node_child_by_field_id(value, m_k.f_right));
  }
  return leaf(value);
}

}  // namespace tr2audit::facts
