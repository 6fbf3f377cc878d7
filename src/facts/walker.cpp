#include "facts/walker.hpp"

#include <algorithm>

#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {

Walker::Walker(const SourceView& source, FileFacts& out, const DispatchTable& dispatch, std::uint32_t max_error_spans)
    : m_src(source), m_k(source.kinds()), m_out(out), m_dispatch(dispatch), m_max_error_spans(max_error_spans) {}

QualifiedName Walker::resolve(TSNode node) const {
  const auto chain = m_src.dotted_chain(node);
  return chain ? m_imports.resolve(*chain) : QualifiedName{};
}

void Walker::emit(std::string_view kind, TSNode node, std::string detail) {
  if (m_mode != Mode::full) return;
  m_out.patterns.push_back(PatternFact{m_src.str(kind), m_src.str(detail), m_src.span(node), m_ctx});
}

void Walker::emit_guarded(std::string_view kind, TSNode node, std::string detail, TSNode guard) {
  if (m_mode != Mode::full) return;
  Context ctx = m_ctx;
  if (std::vector<ConditionTerm> terms = condition_terms(guard); !terms.empty())
    ctx.branch = add_branch(std::move(terms), false, guard, false);
  m_out.patterns.push_back(PatternFact{m_src.str(kind), m_src.str(detail), m_src.span(node), ctx});
}

void Walker::collect_module_bindings(TSNode root) {
  m_mode = Mode::bindings_only;
  parse::walk(root, [&](const parse::WalkStep& step) {
    if (step.event == parse::WalkEvent::leave) return true;
    const TSSymbol kind = ts_node_symbol(step.node);
    if (kind == m_k.function_definition || kind == m_k.class_definition || kind == m_k.lambda) return false;
    if (kind == m_k.import_statement) on_import(step.node);
    if (kind == m_k.import_from_statement) on_import_from(step.node);
    if (kind == m_k.assignment) on_assignment(step.node);
    return true;
  });
  m_mode = Mode::full;
}

void Walker::extract(TSNode root) {
  m_mode = Mode::full;
  parse::walk(root, [&](const parse::WalkStep& step) {
    if (step.event == parse::WalkEvent::enter) return on_enter(step);
    on_leave(step);
    return true;
  });
  finish();
  set_covered_lines(m_out.directives, m_comment_only_lines);
}

void Walker::push_frame(TSNode node, bool pops_scope, std::uint16_t branch_guards) {
  m_frames.push_back(Frame{node, m_ctx, pops_scope, branch_guards});
  m_frames.back().depth = m_depth - 1;  // pushed while its node is entered
}

bool Walker::contains_call(TSNode expr) const {
  bool found = false;
  parse::walk(expr, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || found) return false;
    const TSSymbol kind = ts_node_symbol(step.node);
    // A call into an imported module, or a method call (`self.step.item()`, `mask.any()`: a host sync a finding
    // names); not a builtin's (`isinstance(x, T)`, `len(xs)`).
    const TSNode function = kind == m_k.call ? ts_node_child_by_field_id(step.node, m_k.f_function) : TSNode{};
    found = kind == m_k.call && (m_src.is(function, m_k.attribute) || !resolve(function).empty());
    return !found && kind != m_k.lambda;
  });
  return found;
}

bool Walker::catches_everything(std::string_view caught) {
  if (const auto as = caught.find(" as "); as != std::string_view::npos) caught = caught.substr(0, as);
  caught = trim(caught);
  return caught == "Exception" || caught == "BaseException";
}

bool Walker::try_body_portable(TSNode try_statement) const {
  if (!m_src.is(try_statement, m_k.try_statement)) return false;
  const TSNode body = ts_node_child_by_field_id(try_statement, m_k.f_body);
  if (ts_node_is_null(body) || m_src.node_text(body).find("cuda") != std::string_view::npos) return false;
  static constexpr std::string_view k_builtins[] = {"len",   "int",  "float", "bool",  "str",        "range",
                                                    "min",   "max",  "sum",   "abs",   "round",      "list",
                                                    "tuple", "dict", "set",   "print", "isinstance", "zip"};
  bool portable = true;
  parse::walk(body, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || !portable) return false;
    const TSSymbol kind = ts_node_symbol(step.node);
    if (kind == m_k.import_statement || kind == m_k.import_from_statement || kind == m_k.function_definition ||
        kind == m_k.class_definition) {
      portable = false;
    } else if (kind == m_k.call) {
      const TSNode callee = ts_node_child_by_field_id(step.node, m_k.f_function);
      const QualifiedName resolved = resolve(callee);
      if (!resolved.empty()) {
        portable = resolved.first_segment() == "torch" || resolved.first_segment() == "math";
      } else if (m_src.is(callee, m_k.identifier)) {
        const std::string_view name = m_src.node_text(callee);
        portable = std::find(std::begin(k_builtins), std::end(k_builtins), name) != std::end(k_builtins);
      } else if (m_src.is(callee, m_k.attribute)) {
        // `x.reshape(...)` on a local value; `self.kernel(...)` may be any of the class's paths.
        const TSNode object = ts_node_child_by_field_id(callee, m_k.f_object);
        portable = !(m_src.is(object, m_k.identifier) && m_src.node_text(object) == "self");
      } else {
        portable = false;
      }
    }
    return portable && kind != m_k.lambda;
  });
  return portable;
}

bool Walker::on_enter(const parse::WalkStep& step) {
  const TSNode node = step.node;
  const std::uint32_t depth = m_depth++;
  m_path.push_back(node);
  const TSSymbol kind = ts_node_symbol(node);
  if (kind == m_k.comment) {
    on_comment(node);
    return false;
  }
  enter_branch(node, step.field, depth);
  if (kind == m_k.error || ts_node_is_missing(node)) note_error(node);
  enter_structure(node, kind, step.field);
  record_facts(node, kind, step.field);
  if (kind < m_dispatch.size()) {
    for (detectors::Detector* detector : m_dispatch[kind]) detector->on_enter(node, *this);
  }
  return true;
}

void Walker::on_leave(const parse::WalkStep& step) {
  --m_depth;
  m_path.pop_back();
  if (!m_pending_host.empty()) settle_host_names(step.node);
  std::uint16_t after = 0;
  std::vector<ConditionTerm> terms_after;
  bool terms_after_any_of = false;
  TSNode condition{};
  while (!m_frames.empty() && ts_node_eq(m_frames.back().node, step.node)) {
    if (m_frames.back().pops_scope) m_imports.pop_scope();
    after |= m_frames.back().guards_after;
    if (!m_frames.back().terms_after.empty()) {
      terms_after = std::move(m_frames.back().terms_after);
      terms_after_any_of = m_frames.back().terms_after_any_of;
      condition = m_frames.back().condition_node;
    }
    m_ctx = m_frames.back().saved;
    m_frames.pop_back();
  }
  // `if self.training: return losses` — the rest of the block runs only outside training.
  m_ctx.guards |= after;
  // `if not opt: return` — the rest of the function runs in a branch on `opt` (until the block that
  // holds the if is left, when its frame restores the context).
  if (!terms_after.empty()) m_ctx.branch = add_branch(std::move(terms_after), false, condition, terms_after_any_of);
  // `assert False, "broken"` / `raise NotImplementedError` / `return x` with statements after it in its block:
  // those never run, a branch no run takes (its frame on the block restores the context when the block is left).
  if (m_mode == Mode::full && !m_path.empty() &&
      (m_src.is(m_path.back(), m_k.block) || m_src.is(m_path.back(), m_k.module))) {
    if (std::string what = leaves_block(step.node); !what.empty()) {
      push_frame(m_path.back());
      m_ctx.branch =
          add_branch({ConditionTerm{FactString(k_unreachable_term), FactString(what), false}}, false, step.node);
    }
  }
}

// A branch of an if/elif/try receives the guards its statement computed on entry; an if/elif branch
// also becomes the innermost FileFacts::branches entry (its condition terms, or their negation).
void Walker::enter_branch(TSNode node, TSFieldId field, std::uint32_t depth) {
  if (m_frames.empty()) return;
  // A direct child of the frame's node (by depth: ts_node_parent walks down from the root, which made
  // this check a fifth of the whole scan).
  if (depth != m_frames.back().depth + 1) return;
  if (field == 0 && !(m_src.is(node, m_k.else_clause) && m_src.is(m_frames.back().node, m_k.try_statement))) {
    enter_conditional_value(node);
    return;
  }
  // Copy what we need: push_frame below may reallocate m_frames and invalidate a reference into it.
  const std::uint16_t branch_guards = m_frames.back().branch_guards;
  const std::int32_t condition = m_frames.back().condition;
  const std::uint16_t then_guards = m_frames.back().then_guards;
  const std::uint16_t else_guards = m_frames.back().else_guards;
  const TSNode parent = m_frames.back().node;
  const TSSymbol parent_kind = ts_node_symbol(parent);
  // The right operand of `a and b`, under the left's terms (enter_structure's boolean_operator).
  if (parent_kind == m_k.boolean_operator && field == m_k.f_right && condition >= 0 && m_mode == Mode::full) {
    push_frame(node);
    m_ctx.branch = condition;
    return;
  }
  const bool is_if = parent_kind == m_k.if_statement || parent_kind == m_k.elif_clause;
  const bool if_branch = is_if && (field == m_k.f_consequence || field == m_k.f_alternative);
  // `try: from . import _C` / `except ImportError: ...` / `else: _C.version()`: the else runs only when
  // the body succeeded, behind the same fallback as the body.
  const bool try_body =
      parent_kind == m_k.try_statement && (field == m_k.f_body || ts_node_symbol(node) == m_k.else_clause);
  if (!if_branch && !try_body) return;
  if (branch_guards == 0 && condition < 0 && then_guards == 0 && else_guards == 0) return;
  push_frame(node);
  m_ctx.guards |= branch_guards;
  if (is_if) m_ctx.guards |= field == m_k.f_consequence ? then_guards : else_guards;
  if (condition < 0 || m_mode != Mode::full) return;
  if (field == m_k.f_consequence) {
    m_ctx.branch = condition;
  } else {
    const BranchInfo& taken = m_out.branches[static_cast<std::size_t>(condition)];
    const TSNode test = ts_node_child_by_field_id(parent, m_k.f_condition);
    m_ctx.branch = add_branch(else_terms(taken, test), true, test, taken.any_of);
  }
}

// `GradScaler() if args.fp16 else None`: the first value runs under the condition's terms, the last
// under their negation, like an if statement's sides (the condition's guards cover the whole expression).
void Walker::enter_conditional_value(TSNode node) {
  const TSNode parent = m_frames.back().node;
  const std::int32_t condition = m_frames.back().condition;
  if (condition < 0 || !m_src.is(parent, m_k.conditional_expression)) return;
  const bool then_side = ts_node_eq(node, ts_node_named_child(parent, 0));
  if (!then_side && !ts_node_eq(node, ts_node_named_child(parent, 2))) return;
  push_frame(node);
  m_ctx.branch =
      then_side
          ? condition
          : add_branch(else_terms(m_out.branches[static_cast<std::size_t>(condition)], ts_node_named_child(parent, 1)),
                       true, ts_node_named_child(parent, 1));
}

// What the else side of a branch on `condition` may say: the taken side's terms are false there only as
// a whole, so a conjunction whose list left a conjunct out (`a and (b or c)` gives `a` alone) says nothing.
CompactArray<ConditionTerm> Walker::else_terms(const BranchInfo& taken, TSNode condition) const {
  if (!taken.any_of && taken.terms.size() != conjunct_count(condition)) return {};
  return taken.terms;
}

std::int32_t Walker::add_branch(CompactArray<ConditionTerm> terms, bool else_side, TSNode condition, bool any_of) {
  m_out.branches.push_back(BranchInfo{m_ctx.branch, std::move(terms), else_side, any_of, m_src.span(condition)});
  return static_cast<std::int32_t>(m_out.branches.size() - 1);
}

bool Walker::enter_structure(TSNode node, TSSymbol kind, TSFieldId /*field*/) {
  if (kind == m_k.function_definition) {
    enter_function(node);
  } else if (kind == m_k.class_definition) {
    enter_class(node);
  } else if (kind == m_k.for_statement) {
    enter_loop(node, LoopKind::for_loop);
  } else if (kind == m_k.while_statement) {
    enter_loop(node, LoopKind::while_loop);
  } else if (kind == m_k.list_comprehension || kind == m_k.set_comprehension || kind == m_k.dictionary_comprehension ||
             kind == m_k.generator_expression) {
    enter_loop(node, LoopKind::comprehension);
  } else if (kind == m_k.lambda) {
    enter_lambda(node);
  } else if (kind == m_k.if_statement || kind == m_k.elif_clause) {
    const TSNode condition = ts_node_child_by_field_id(node, m_k.f_condition);
    std::uint16_t guards = condition_guards(condition);
    if (kind == m_k.elif_clause && !m_frames.empty()) guards |= m_frames.back().branch_guards;
    // `if cuda: ... else: raise` is a hard requirement: the CUDA branch is the only way through.
    constexpr std::uint16_t k_fallback_guards = guard_bit(Guard::cuda_available) | guard_bit(Guard::device_branch);
    if (kind == m_k.if_statement && (guards & k_fallback_guards) &&
        (else_only_raises(node) || binds_name_needed_later(node) || moves_to_cuda_when_elsewhere(node)))
      guards &= static_cast<std::uint16_t>(~k_fallback_guards);
    std::vector<ConditionTerm> terms = condition_terms(condition);
    // `if not check_deepspeed_zero3_enabled(): return` — the rest runs only when the term is false;
    // `if plugin is None or plugin.zero_stage != 3: return` — only when every disjunct is.
    std::vector<ConditionTerm> after;
    bool after_any_of = false;
    if (kind == m_k.if_statement && m_mode == Mode::full && returns_early(node))
      after = terms_after_return(condition, terms, after_any_of);
    bool early_return = false;
    auto [then_guards, else_guards] = training_mode_guards(terms, node, early_return);
    // `if is_xpu_available(): ... else: batch.to("cuda:0")`: an availability probe guards the branch that
    // uses what it probes; the other branch is the path a machine without it takes, Trainium's included.
    if (guards & guard_bit(Guard::import_error_fallback)) {
      guards &= static_cast<std::uint16_t>(~guard_bit(Guard::import_error_fallback));
      (m_src.is(condition, m_k.not_operator) ? else_guards : then_guards) |= guard_bit(Guard::import_error_fallback);
    }
    // `if args.use_qlora or args.use_paged_optimizer:`: any of the terms takes the branch.
    bool any_of = false;
    if (terms.empty() && m_mode == Mode::full) {
      terms = disjunction_terms(condition);
      any_of = !terms.empty();
    }
    const std::int32_t branch = m_mode == Mode::full ? add_branch(std::move(terms), false, condition, any_of) : -1;
    push_frame(node, false, guards);
    m_frames.back().condition = branch;
    m_frames.back().message_only = kind == m_k.if_statement && then_only_messages(node);
    m_frames.back().then_guards = then_guards;
    if (export_only(condition)) m_frames.back().then_guards |= guard_bit(Guard::not_training);
    if (kind == m_k.if_statement && then_ends_in_failure(node))
      m_frames.back().then_guards |= guard_bit(Guard::error_message);
    m_frames.back().else_guards = else_guards;
    // `if not torch.isfinite(grad_norm): print(...); optimizer.zero_grad()`: the step that skips a bad batch.
    if (const int rare = kind == m_k.if_statement ? non_finite_test(condition) : 0; rare != 0)
      (rare > 0 ? m_frames.back().then_guards : m_frames.back().else_guards) |= guard_bit(Guard::non_finite);
    if (early_return && kind == m_k.if_statement) m_frames.back().guards_after |= guard_bit(Guard::not_training);
    if (kind == m_k.if_statement) m_frames.back().guards_after |= returns_unless_available(node, condition);
    if (!after.empty()) {
      m_frames.back().terms_after = std::move(after);
      m_frames.back().terms_after_any_of = after_any_of;
      m_frames.back().condition_node = condition;
    }
  } else if (kind == m_k.boolean_operator) {
    // `torch.cuda.is_available() and torch.cuda.is_bf16_supported()`: the right side runs only when the left
    // holds; `not torch.cuda.is_available() or torch.cuda.is_bf16_supported()`: only when the probe holds.
    constexpr std::uint16_t k_probe_guards = guard_bit(Guard::cuda_available) | guard_bit(Guard::device_branch) |
                                             guard_bit(Guard::import_error_fallback) | guard_bit(Guard::neuron_branch);
    const std::string_view op = m_src.node_text(ts_node_child_by_field_id(node, m_k.f_operator));
    TSNode probe = ts_node_child_by_field_id(node, m_k.f_left);
    // `self.self_condition and random() < 0.5`: the right operand runs only where the left's terms hold, a
    // branch of its own (Walker::enter_branch enters it on the right operand).
    std::vector<ConditionTerm> left_terms;
    // (Only where the right operand calls into an imported module, `torch.cuda.get_device_capability()`, or a
    // method, `self.step.item()`: a comparison of names, `isinstance` or `len` leaves no finding to gate.)
    if (op == "and" && m_mode == Mode::full && contains_call(ts_node_child_by_field_id(node, m_k.f_right)))
      left_terms = condition_terms(probe);
    if (op == "or") {
      if (!m_src.is(probe, m_k.not_operator)) return false;
      probe = ts_node_named_child(probe, 0);  // the operand of `not`
    } else if (op != "and") {
      return false;
    }
    const std::uint16_t left = condition_guards(probe) & k_probe_guards;
    if (left == 0 && left_terms.empty()) return false;
    push_frame(node);
    m_ctx.guards |= left;
    if (!left_terms.empty()) m_frames.back().condition = add_branch(std::move(left_terms), false, probe, false);
  } else if (kind == m_k.conditional_expression) {
    push_frame(node);
    const TSNode condition = ts_node_named_child(node, 1);
    m_ctx.guards |= condition_guards(condition);
    if (m_mode == Mode::full && ts_node_named_child_count(node) == 3) {
      std::vector<ConditionTerm> terms = condition_terms(condition);
      if (!terms.empty()) m_frames.back().condition = add_branch(std::move(terms), false, condition);
    }
  } else if (kind == m_k.try_statement) {
    push_frame(node, false, try_guards(node));
  } else if (kind == m_k.except_clause) {
    push_frame(node);
    m_ctx.guards |= guard_bit(Guard::except_handler);
    // Recovery after a CUDA out-of-memory error runs only where CUDA exists.
    TSNode caught = ts_node_named_child(node, 0);
    for (std::uint32_t c = 1; !ts_node_is_null(caught) && m_src.is(caught, m_k.comment); ++c)
      caught = ts_node_named_child(node, c);
    if (!ts_node_is_null(caught) && !m_src.is(caught, m_k.block) &&
        m_src.node_text(caught).find("OutOfMemoryError") != std::string_view::npos)
      m_ctx.guards |= guard_bit(Guard::cuda_available);
    // `except RuntimeError:` / `except torch.linalg.LinAlgError:` around `eigh`/`cholesky`: the fallback in
    // the clause runs only when that code fails (a retry in float64, with more jitter), not every step.
    else if (!ts_node_is_null(caught) && !m_src.is(caught, m_k.block) && recovers_from_failure(m_src.node_text(caught)))
      m_ctx.guards |= guard_bit(Guard::failure_path);
    // `try: x[sel] = x[sel] * 0 + v` / `except Exception:` (or a bare `except:`): when the `try` holds only
    // portable tensor code, the clause recovers from a bad sample or a numerical failure; it is no fallback
    // for missing CUDA (a `try` that imports, calls a library or names CUDA is: that clause runs on Neuron).
    else if ((ts_node_is_null(caught) || m_src.is(caught, m_k.block) || catches_everything(m_src.node_text(caught))) &&
             try_body_portable(ancestor(1)))
      m_ctx.guards |= guard_bit(Guard::failure_path);
  } else if (kind == m_k.raise_statement) {
    // `raise RuntimeError(f"non-finite loss: {loss.item()}")`: runs once, when the run fails.
    push_frame(node);
    m_ctx.guards |= guard_bit(Guard::error_message);
  } else if (kind == m_k.assert_statement) {
    push_frame(node);
    m_ctx.in_assert = true;
  } else if (kind == m_k.with_statement && is_no_grad_with(node)) {
    push_frame(node);
    m_ctx.guards |= guard_bit(Guard::no_grad);
  } else if (kind == m_k.error) {
    push_frame(node);
    m_ctx.in_error_region = true;
  } else {
    return false;
  }
  return true;
}

void Walker::record_facts(TSNode node, TSSymbol kind, TSFieldId field) {
  if (kind == m_k.import_statement) {
    on_import(node);
  } else if (kind == m_k.import_from_statement) {
    on_import_from(node);
  } else if (kind == m_k.call) {
    on_call(node);
  } else if (kind == m_k.decorator) {
    on_decorator(node);
  } else if (kind == m_k.assignment) {
    on_assignment(node);
  } else if (kind == m_k.augmented_assignment && m_mode == Mode::full) {
    // `running += loss.detach()`: a host tensor that takes in a device value is no host value any more.
    const TSNode right = ts_node_child_by_field_id(node, m_k.f_right);
    if (!ts_node_is_null(right) && !host_value(right) && !scalar_value(right))
      note_host_name(ts_node_child_by_field_id(node, m_k.f_left), TSNode{});
  } else if (kind == m_k.string) {
    on_string(node);
  } else if (kind == m_k.attribute || kind == m_k.identifier) {
    on_reference(node, field);
  } else if (kind == m_k.return_statement || kind == m_k.pair) {
    on_value(node, kind);
  } else if (kind == m_k.subscript) {
    on_subscript(node);
  } else if (kind == m_k.yield && m_ctx.function >= 0) {
    m_out.functions[static_cast<std::size_t>(m_ctx.function)].is_generator = true;
  }
}

void Walker::note_error(TSNode node) {
  m_out.has_syntax_errors = true;
  if (m_out.error_spans.size() < m_max_error_spans) m_out.error_spans.push_back(m_src.span(node));
}

}  // namespace tr2audit::facts
