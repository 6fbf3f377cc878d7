// facts/walker_flow: what a statement says about the code around it: a CUDA branch that binds a name read after it
// (the branch is the only way through, unless the name has a fallback value), a branch that moves a value to CUDA
// exactly where it is not there (neither is a guard), and whether a statement always leaves its block (the
// statements after `assert False`, `raise`, `return`, `continue`, `break` or `sys.exit(...)` never run).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "facts/walker.hpp"

namespace tr2audit::facts {

namespace {

/// The statement's assignment (`x = ...`, `x: int = ...`, `a, b = ...`), or a null node.
TSNode assignment_of(TSNode statement, const SourceView& src, const parse::NodeKinds& k) {
  if (!src.is(statement, k.expression_statement)) return {};
  const TSNode assignment = ts_node_named_child(statement, 0);
  return !ts_node_is_null(assignment) && src.is(assignment, k.assignment) ? assignment : TSNode{};
}

/// The plain name a statement assigns (`x = ...`), or "" for any other statement (a tuple assigns no plain name).
std::string_view assigned_name(TSNode statement, const SourceView& src, const parse::NodeKinds& k) {
  const TSNode assignment = assignment_of(statement, src, k);
  if (ts_node_is_null(assignment)) return {};
  const TSNode left = ts_node_child_by_field_id(assignment, k.f_left);
  return src.is(left, k.identifier) ? src.node_text(left) : std::string_view{};
}

/// The plain names a statement assigns, a tuple's too (`t5, tokenizer = load(name)`).
std::vector<std::string_view> assigned_names(TSNode statement, const SourceView& src, const parse::NodeKinds& k) {
  std::vector<std::string_view> out;
  const TSNode assignment = assignment_of(statement, src, k);
  if (ts_node_is_null(assignment)) return out;
  const TSNode left = ts_node_child_by_field_id(assignment, k.f_left);
  if (src.is(left, k.identifier)) {
    out.push_back(src.node_text(left));
  } else if (src.is(left, k.pattern_list) || src.is(left, k.tuple_pattern)) {
    for (std::uint32_t i = 0; i < ts_node_named_child_count(left); ++i) {
      const TSNode part = ts_node_named_child(left, i);
      if (src.is(part, k.identifier)) out.push_back(src.node_text(part));
    }
  }
  return out;
}

/// `t5 = t5.cuda()`: the statement's value reads the name it rebinds, which so was bound before.
bool rebinds_from_itself(TSNode statement, std::string_view name, const SourceView& src, const parse::NodeKinds& k) {
  const TSNode assignment = ts_node_named_child(statement, 0);
  const TSNode right = ts_node_child_by_field_id(assignment, k.f_right);
  if (ts_node_is_null(right)) return false;
  const std::string_view text = src.node_text(right);
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool starts = at == 0 || (!word(text[at - 1]) && text[at - 1] != '.');
    const bool ends = at + name.size() == text.size() || !word(text[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

bool Walker::binds_name_needed_later(TSNode if_statement) const {
  if (!ts_node_is_null(ts_node_child_by_field_id(if_statement, m_k.f_alternative))) return false;
  const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
  if (ts_node_is_null(body)) return false;
  std::vector<std::string_view> names;
  for (std::uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    const TSNode statement = ts_node_named_child(body, i);
    const std::string_view name = assigned_name(statement, m_src, m_k);
    // (`if torch.cuda.is_available(): t5 = t5.cuda()` moves a value that exists either way.)
    if (!name.empty() && !rebinds_from_itself(statement, name, m_src, m_k)) names.push_back(name);
  }
  if (names.empty()) return false;
  // A value set before the if (`n_gpus = 0`, `t5, tokenizer = load(name)`) is the fallback.
  for (TSNode prev = ts_node_prev_named_sibling(if_statement); !ts_node_is_null(prev);
       prev = ts_node_prev_named_sibling(prev)) {
    for (const std::string_view bound : assigned_names(prev, m_src, m_k)) std::erase(names, bound);
  }
  // ... and so is one set earlier in the function outside any branch this if is not in (`peak_gb = 0.0`
  // before the training loop, then `if device == "cuda": peak_gb = ...` every N steps). The facts keep
  // plain locals bound to literals and to calls.
  const std::uint32_t start = ts_node_start_byte(if_statement);
  const auto encloses = [&](std::int32_t branch) {
    for (std::int32_t b = m_ctx.branch; b >= 0; b = m_out.branches[static_cast<std::size_t>(b)].parent) {
      if (b == branch) return true;
    }
    return branch < 0;
  };
  std::erase_if(names, [&](std::string_view name) {
    return std::any_of(m_out.assigns.begin(), m_out.assigns.end(),
                       [&](const AssignFact& a) {
                         return a.ctx.function == m_ctx.function && a.at.start_byte < start && a.target_text == name &&
                                encloses(a.ctx.branch);
                       }) ||
           std::any_of(m_out.bound_calls.begin(), m_out.bound_calls.end(), [&](const BoundCall& b) {
             return b.ctx.function == m_ctx.function && b.call_start_byte < start && b.target_text == name &&
                    encloses(b.ctx.branch);
           });
  });
  if (names.empty()) return false;
  // A later `if` on the same condition (jepa's gpu_timer: `if log_timings: start = torch.cuda.Event(...)` ...
  // `if log_timings: end.record()`) uses the names only where they were bound: only its else side counts.
  const std::string_view condition = m_src.node_text(ts_node_child_by_field_id(if_statement, m_k.f_condition));
  for (TSNode next = ts_node_next_named_sibling(if_statement); !ts_node_is_null(next);
       next = ts_node_next_named_sibling(next)) {
    TSNode scope = next;
    if (m_src.is(next, m_k.if_statement) &&
        m_src.node_text(ts_node_child_by_field_id(next, m_k.f_condition)) == condition) {
      scope = ts_node_child_by_field_id(next, m_k.f_alternative);
      if (ts_node_is_null(scope)) continue;
    }
    bool used = false;
    parse::walk(scope, [&](const parse::WalkStep& step) {
      if (step.event != parse::WalkEvent::enter || used) return false;
      if (m_src.is(step.node, m_k.function_definition) || m_src.is(step.node, m_k.class_definition)) return false;
      if (m_src.is(step.node, m_k.identifier)) {
        // x.n_gpus, f(n_gpus=1): a member or keyword name, not the local (no ts_node_parent: it walks
        // down from the root in tree-sitter 0.25)
        if (step.field == m_k.f_attribute || step.field == m_k.f_name) return false;
        const std::string_view text = m_src.node_text(step.node);
        used = std::find(names.begin(), names.end(), text) != names.end();
      }
      return !used;
    });
    if (used) return true;
    // Another `if` that assigns the name (`if xpu: n_gpus = ...`) is one more device path, not a fallback.
  }
  return false;
}

bool Walker::moves_to_cuda_when_elsewhere(TSNode if_statement) const {
  const std::string_view condition = m_src.node_text(ts_node_child_by_field_id(if_statement, m_k.f_condition));
  const TSNode body = ts_node_child_by_field_id(if_statement, m_k.f_consequence);
  if (ts_node_is_null(body) || condition.find("!=") == std::string_view::npos ||
      condition.find("cuda") == std::string_view::npos || condition.find(" or ") != std::string_view::npos)
    return false;
  return m_src.node_text(body).find("cuda") != std::string_view::npos;
}

std::string Walker::leaves_block(TSNode statement) const {
  const TSSymbol kind = ts_node_symbol(statement);
  std::string_view what;
  if (kind == m_k.raise_statement) {
    what = "raise";
  } else if (kind == m_k.return_statement) {
    what = "return";
  } else if (kind == m_k.continue_statement) {
    what = "continue";
  } else if (kind == m_k.break_statement) {
    what = "break";
  } else if (kind == m_k.assert_statement) {
    // `assert False, "broken"` / `assert 0`: fails whenever it runs.
    const Argument test = m_src.literal(ts_node_named_child(statement, 0));
    const bool fails = (test.kind == LiteralKind::boolean && test.value == "False") || test.kind == LiteralKind::null ||
                       (test.kind == LiteralKind::integer && test.value == "0");
    if (!fails) return {};
    what = "assert False";
  } else if (const TSNode call = process_exit(statement); !ts_node_is_null(call)) {
    what = m_src.node_text(ts_node_child_by_field_id(call, m_k.f_function));
  } else {
    return {};
  }
  // (Only then the sibling: finding a node's next sibling walks down from the root, too slow for every statement.)
  TSNode next = ts_node_next_named_sibling(statement);
  while (!ts_node_is_null(next) && m_src.is(next, m_k.comment)) next = ts_node_next_named_sibling(next);
  if (ts_node_is_null(next)) return {};
  return "`" + std::string(what) + "` (line " + std::to_string(ts_node_start_point(statement).row + 1) + ")";
}

}  // namespace tr2audit::facts
