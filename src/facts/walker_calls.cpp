// Calls, decorators, assignments and values passed on: the facts most rules match (string literals are in
// walker_strings.cpp).
#include <algorithm>
#include <cctype>

#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

/// Guards that pick a device path: an alias bound under one names the GPU choice of a switch.
constexpr std::uint16_t k_device_guards = guard_bit(Guard::cuda_available) | guard_bit(Guard::device_branch);

}  // namespace

// `[tokenizer(t, ...) for t in texts]`, `[f(ex["text"]) for ex in batch]`: the first positional argument
// is the innermost comprehension's item, or a subscript or attribute of it.
bool Walker::item_argument(std::span<const Argument> args) const {
  if (m_ctx.loop < 0) return false;
  const LoopInfo& loop = m_out.loops[static_cast<std::size_t>(m_ctx.loop)];
  if (loop.kind != LoopKind::comprehension || loop.target_text.empty()) return false;
  const auto first =
      std::find_if(args.begin(), args.end(), [](const Argument& a) { return a.keyword.empty() && !a.is_splat; });
  if (first == args.end() || (first->kind != LiteralKind::name && first->kind != LiteralKind::other)) return false;
  const std::string_view value = first->value;
  std::string_view targets = loop.target_text;
  while (!targets.empty()) {
    const std::string_view name = targets.substr(0, targets.find(','));
    targets.remove_prefix(std::min(targets.size(), name.size() + 1));
    if (!starts_with(value, name)) continue;
    // `for batch in batches` / `for chunk in chunks`: the item is itself a batch.
    const std::string lower = to_lower(name);
    if (lower.find("batch") != std::string::npos || lower.find("chunk") != std::string::npos ||
        lower.find("group") != std::string::npos)
      continue;
    if (value.size() == name.size() || value[name.size()] == '[' || value[name.size()] == '.') return true;
  }
  return false;
}

Argument Walker::value_literal(TSNode node) const {
  Argument arg = m_src.literal(node);
  if (arg.conditional) {
    // (`"flash_attention_2" if is_flash_attn_2_available() else "eager"`: an availability check has a fallback too.)
    constexpr std::uint16_t k_presence =
        guard_bit(Guard::cuda_available) | guard_bit(Guard::device_branch) | guard_bit(Guard::import_error_fallback);
    arg.conditional.emplace().guards =
        static_cast<std::uint16_t>(condition_guards(ts_node_named_child(m_src.unwrap_parens(node), 1)) & k_presence);
  }
  return arg;
}

std::vector<Argument> Walker::read_arguments(TSNode argument_list) const {
  std::vector<Argument> args;
  if (ts_node_is_null(argument_list)) return args;
  if (!m_src.is(argument_list, m_k.argument_list)) {  // f(x for x in y)
    args.push_back(value_literal(argument_list));
    return args;
  }
  const std::uint32_t count = ts_node_named_child_count(argument_list);
  args.reserve(count);  // exact unless comments sit among the arguments: no regrowth, nothing to shrink
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(argument_list, i);
    const TSSymbol kind = ts_node_symbol(child);
    if (kind == m_k.comment) continue;
    Argument arg;
    if (kind == m_k.keyword_argument) {
      arg = value_literal(ts_node_child_by_field_id(child, m_k.f_value));
      arg.keyword = m_src.str(m_src.node_text(ts_node_child_by_field_id(child, m_k.f_name)));
      arg.at = m_src.span(child);
    } else if (kind == m_k.list_splat || kind == m_k.dictionary_splat) {
      arg.kind = LiteralKind::other;
      arg.is_splat = true;
      arg.keyword = kind == m_k.dictionary_splat ? "**" : "";
      arg.value = m_src.capped(child, 80);
    } else {
      arg = value_literal(child);
    }
    if (arg.kind == LiteralKind::name) arg.resolved = m_src.name(m_imports.resolve(arg.value));
    if (!arg.is_splat && m_mode == Mode::full)
      arg.scalar = scalar_value(kind == m_k.keyword_argument ? ts_node_child_by_field_id(child, m_k.f_value) : child);
    args.push_back(std::move(arg));
  }
  return args;
}

void Walker::on_call(TSNode node) {
  if (m_mode != Mode::full) return;
  const TSNode fn = m_src.unwrap_parens(ts_node_child_by_field_id(node, m_k.f_function));
  CallFact call;
  call.callee_text = m_src.capped(fn);
  call.callee = m_src.name(resolve(fn));
  if (m_src.is(fn, m_k.attribute)) {
    call.method = m_src.str(m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute)));
    const TSNode receiver = m_src.unwrap_parens(ts_node_child_by_field_id(fn, m_k.f_object));
    call.receiver_text = m_src.capped(receiver, 80);
    const auto receiver_name = m_src.node_text(receiver);
    call.receiver_is_self = m_src.is(receiver, m_k.identifier) && (receiver_name == "self" || receiver_name == "cls");
    if (m_src.is(receiver, m_k.call))
      call.receiver_callee = m_src.name(resolve(ts_node_child_by_field_id(receiver, m_k.f_function)));
    call.host_value = call.callee.empty() && host_value(receiver);
  }
  if (call.callee.first_segment() == "torch") {  // torch.where(sizes == s): its first argument
    const TSNode args = ts_node_child_by_field_id(node, m_k.f_arguments);
    call.host_value = !ts_node_is_null(args) && m_src.is(args, m_k.argument_list) &&
                      ts_node_named_child_count(args) > 0 && host_value(ts_node_named_child(args, 0));
  }
  call.args = read_arguments(ts_node_child_by_field_id(node, m_k.f_arguments));
  call.item_argument = item_argument(call.args);
  call.at = m_src.span(node);
  call.ctx = m_ctx;
  call.ctx.in_error_region |= ts_node_has_error(node);
  // `extension(...)` where `extension = CUDAExtension` only under `if torch.cuda.is_available():`
  // (CppExtension otherwise): the CUDA build runs behind that guard.
  if (m_src.is(fn, m_k.identifier)) call.ctx.guards |= m_imports.guards_of(m_src.node_text(fn));
  if (!m_frames.empty() && m_frames.back().message_only) {
    const TSNode condition = ts_node_child_by_field_id(m_frames.back().node, m_k.f_condition);
    if (!ts_node_is_null(condition) && ts_node_start_byte(node) >= ts_node_start_byte(condition) &&
        ts_node_end_byte(node) <= ts_node_end_byte(condition))
      call.ctx.guards |= guard_bit(Guard::message_only);
  }
  note_training_calls(call);
  on_special_call(call, node);
  m_out.calls.push_back(std::move(call));
}

void Walker::note_training_calls(const CallFact& call) {
  const bool backward = call.method == "backward" || call.callee.dotted() == "torch.autograd.backward";
  const std::string receiver = to_lower(call.receiver_text);
  const bool step = (call.method == "step" &&
                     (receiver.find("optim") != std::string::npos || receiver.find("scaler") != std::string::npos)) ||
                    call.callee.dotted() == "torch_xla.core.xla_model.optimizer_step";
  if (!backward && !step) return;
  if (m_ctx.function >= 0) {
    auto& fn = m_out.functions[m_ctx.function];
    fn.calls_backward |= backward;
    fn.calls_optimizer_step |= step;
  }
  for (std::int32_t loop = m_ctx.loop; loop >= 0; loop = m_out.loops[loop].parent)
    m_out.loops[loop].calls_backward = true;
}

std::optional<std::string> Walker::module_template(std::string_view text) {
  if (text.size() < 4 || (text[0] != 'f' && text[0] != 'F') || (text[1] != '"' && text[1] != '\'') ||
      text.back() != text[1])
    return std::nullopt;
  text = text.substr(2, text.size() - 3);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{') {
      const auto close = text.find('}', i);
      if (close == std::string_view::npos) return std::nullopt;
      out += '*';
      i = close;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.') {
      out += c;
    } else {
      return std::nullopt;
    }
  }
  // A fixed package prefix (`verl.models.`): a bare `f"{name}"` says nothing of where the module is.
  const auto star = out.find('*');
  if (star == std::string::npos || out.substr(0, star).find('.') == std::string::npos) return std::nullopt;
  return out;
}

void Walker::on_special_call(const CallFact& call, TSNode node) {
  const FactString& callee = call.callee.dotted();
  const bool dynamic_import = callee == "importlib.import_module" || call.callee_text == "__import__";
  // `importlib.import_module("pkg.mod")`, or with computed parts
  // (`f"verl.models.{name}.megatron.modeling_{name}_megatron"`) kept as a template
  // ("verl.models.*.megatron.modeling_*_megatron") that program/inherit matches against the repo's modules.
  std::optional<std::string> target;
  if (dynamic_import && !call.args.empty() && call.args[0].kind == LiteralKind::string)
    target = call.args[0].value.str();
  else if (dynamic_import && !call.args.empty() && call.args[0].keyword.empty())
    target = module_template(call.args[0].value);
  if (target) {
    ImportFact fact;
    fact.target = m_src.name(QualifiedName::from_dotted(*target));
    fact.module = fact.target;
    fact.dynamic = true;
    fact.at = call.at;
    fact.statement = call.at;
    fact.ctx = call.ctx;
    m_out.imports.push_back(std::move(fact));
  }
  if (callee == "torch_xla.core.xla_model.add_step_closure" && !call.args.empty() &&
      call.args[0].kind == LiteralKind::name)
    m_step_closure_names.push_back(call.args[0].value);
  if (callee == "setuptools.setup" || callee == "distutils.core.setup" || call.callee_text == "setup")
    on_setup_call(node);
}

void Walker::on_decorator(TSNode node) {
  if (m_mode != Mode::full) return;
  DecoratorFact fact;
  TSNode expr = ts_node_named_child(node, 0);
  fact.text = m_src.capped(expr);
  if (m_src.is(expr, m_k.call)) {
    fact.args = read_arguments(ts_node_child_by_field_id(expr, m_k.f_arguments));
    expr = ts_node_child_by_field_id(expr, m_k.f_function);
  }
  fact.decorator = m_src.name(resolve(expr));
  if (fact.decorator.empty()) fact.decorator = m_src.name(QualifiedName::from_dotted(m_src.node_text(expr)));
  const TSNode definition = ts_node_child_by_field_id(ts_node_parent(node), m_k.f_definition);
  if (!ts_node_is_null(definition))
    fact.decorated = m_src.str(m_src.node_text(ts_node_child_by_field_id(definition, m_k.f_name)));
  fact.at = m_src.span(node);
  fact.ctx = m_ctx;
  m_out.decorators.push_back(std::move(fact));
}

void Walker::on_assignment(TSNode node) {
  const TSNode left = ts_node_child_by_field_id(node, m_k.f_left);
  const TSNode right = m_src.unwrap_parens(ts_node_child_by_field_id(node, m_k.f_right));
  // `STEP, VERBOSE = 0, os.environ.get("VERBOSE", "0") == "1"`: each name is bound to its own value.
  const bool pairs = (m_src.is(left, m_k.pattern_list) || m_src.is(left, m_k.tuple_pattern)) &&
                     m_src.is(right, m_k.expression_list) &&
                     ts_node_named_child_count(left) == ts_node_named_child_count(right);
  if (!pairs) return bind(node, left, right);
  for (std::uint32_t i = 0; i < ts_node_named_child_count(left); ++i) {
    const TSNode target = ts_node_named_child(left, i);
    // (A nested pattern, `(a, b), c = ...`, binds its names to values not spelled out here.)
    if (m_src.is(target, m_k.identifier) || m_src.is(target, m_k.attribute) || m_src.is(target, m_k.subscript))
      bind(node, target, m_src.unwrap_parens(ts_node_named_child(right, i)));
    else
      bind(node, target, TSNode{});
  }
}

TSNode Walker::collection_of(std::string_view name) const {
  for (auto it = m_local_collections.rbegin(); it != m_local_collections.rend(); ++it) {
    if (it->function == m_ctx.function && it->name == name) return it->collection;
  }
  for (auto it = m_module_lists.rbegin(); it != m_module_lists.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return TSNode{};
}

// One target bound to one value (`right` is null when the value is not spelled out).
void Walker::bind(TSNode node, TSNode left, TSNode right) {
  if (m_mode == Mode::full) note_host_name(left, right);
  if (m_src.is(left, m_k.identifier)) {
    if (m_mode == Mode::full) on_dispatch_table(left, right);
    if (m_mode == Mode::full) on_defaults_table(left, right);
    if (m_mode == Mode::full) on_lazy_import_table(left, right);
    if (m_ctx.function < 0 && m_ctx.klass < 0 && !ts_node_is_null(right) && m_src.is(right, m_k.list))
      m_module_lists.emplace_back(m_src.node_text(left), right);
    if (m_mode == Mode::full && !ts_node_is_null(right) && m_src.is(right, m_k.attribute)) {
      const TSNode object = ts_node_child_by_field_id(right, m_k.f_object);
      if (m_src.is(object, m_k.call))
        m_out.read_bindings.push_back(BoundCall{m_src.capped(left), m_src.span(object).start_byte, m_ctx});
    }
    if (m_ctx.function >= 0) {
      const bool collection = !ts_node_is_null(right) &&
                              (m_src.is(right, m_k.list) || m_src.is(right, m_k.tuple) || m_src.is(right, m_k.set));
      m_local_collections.push_back(
          LocalCollection{m_ctx.function, m_src.node_text(left), collection ? right : TSNode{}});
      note_periodic_local(m_src.node_text(left), right);
      if (m_mode == Mode::full) {
        note_string_form(m_src.node_text(left), right);
        const std::pair<std::int32_t, std::string_view> local{m_ctx.function, m_src.node_text(left)};
        const auto known = std::find(m_scalar_locals.begin(), m_scalar_locals.end(), local);
        const bool scalar = !ts_node_is_null(right) && scalar_value(right);
        if (scalar && known == m_scalar_locals.end()) m_scalar_locals.push_back(local);
        if (!scalar && known != m_scalar_locals.end()) m_scalar_locals.erase(known);
      }
    }
    const QualifiedName alias = ts_node_is_null(right) ? QualifiedName{} : resolve(right);
    // `try: from flash_attn import flash_attn_func` / `except ImportError: flash_attn_func = None`: None is no
    // function, so a call of the name still runs the library's (or fails without it); the import stays bound.
    const bool missing_placeholder = !ts_node_is_null(right) && m_src.is(right, m_k.none) &&
                                     m_ctx.has(Guard::except_handler) &&
                                     m_imports.lookup(m_src.node_text(left)) != nullptr;
    if (!alias.empty())
      m_imports.bind(m_src.node_text(left), alias,  // F = torch.nn.functional
                     static_cast<std::uint16_t>(m_ctx.guards & k_device_guards));
    else if (!missing_placeholder)
      m_imports.shadow(m_src.node_text(left));
    else if (std::find(m_optional_imports.begin(), m_optional_imports.end(), m_src.node_text(left)) ==
             m_optional_imports.end())
      m_optional_imports.push_back(m_src.node_text(left));
  } else if (m_src.is(left, m_k.subscript)) {
    // `ret["box_predictor"] = box_predictor`: a dict entry the program follows (program/types).
    const auto key = m_src.string_literal(ts_node_child_by_field_id(left, m_k.f_subscript));
    if (key && !key->empty() && m_mode == Mode::full) add_value(ValueSink::dict_entry, *key, right);
    if (key) on_keyed_assignment(left, *key, right, node);
    return;
  } else if (!m_src.is(left, m_k.attribute)) {
    parse::walk(left, [&](const parse::WalkStep& step) {  // a, b = ...: both become locals
      if (step.event == parse::WalkEvent::enter && m_src.is(step.node, m_k.identifier))
        m_imports.shadow(m_src.node_text(step.node));
      return true;
    });
    return;
  }
  if (m_mode != Mode::full || ts_node_is_null(right)) return;
  if (m_src.is(right, m_k.call))
    m_out.bound_calls.push_back(BoundCall{m_src.capped(left), m_src.span(right).start_byte, m_ctx});
  AssignFact fact;
  fact.target_text = m_src.capped(left);
  fact.value = value_literal(right);
  if (fact.value.kind == LiteralKind::name) fact.value.resolved = m_src.name(m_imports.resolve(fact.value.value));
  if (m_src.is(left, m_k.attribute)) {
    fact.target = m_src.name(resolve(left));
    fact.target_is_import = !fact.target.empty();
    if (fact.target.empty()) fact.target = m_src.name(QualifiedName::from_dotted(fact.target_text));
  } else {
    // Plain locals only matter with literal values, module flags computed from a CUDA probe
    // (`SUPPORTS_FLEX = torch.cuda.is_available() and ...`) and environment switches, which program/options reads.
    const FactString& text = fact.value.value;
    const bool cuda_flag =
        m_ctx.function < 0 && m_ctx.klass < 0 &&
        (text.find("cuda.is_available") != std::string::npos ||
         text.find("get_device_capability") != std::string::npos || text.find("cuda_capability") != std::string::npos);
    // A dataclass field's default: `do_eval: bool = field(default=False, metadata=...)`.
    if (fact.value.kind == LiteralKind::other && m_ctx.klass >= 0 && m_ctx.function < 0)
      field_default(right, fact.value);
    // An environment switch: `KEEP_CUDA_BUILD = os.getenv("KEEP_CUDA_BUILD", "FALSE") == "TRUE"` at module
    // level, or a comparison in a function (`fold = os.environ.get("PTS_FOLD", "0") == "1"`).
    const bool env_flag =
        ((m_ctx.function < 0 && m_ctx.klass < 0) || (m_ctx.function >= 0 && text.find("==") != std::string::npos)) &&
        (text.find("getenv(") != std::string::npos || text.find("environ.get(") != std::string::npos);
    // `adapter_names = check_adapters_to_merge(self, adapter_names)`: a parameter rebound in its function
    // no longer holds its default (program/options reads this).
    bool rebinds_parameter = false;
    if (m_ctx.function >= 0) {
      for (const Argument& param : m_out.functions[static_cast<std::size_t>(m_ctx.function)].param_defaults)
        rebinds_parameter |= param.keyword == fact.target_text;
    }
    // `backend = "nccl" if has_gpu else "gloo"`: a local a call may receive (program::local_value_of), in a
    // function or in a script's body (picotron's train.py, under `if __name__ == "__main__":`).
    const bool conditional_literal =
        (m_ctx.function >= 0 || m_ctx.klass < 0) && static_cast<bool>(fact.value.conditional);
    // `layer_type = self.neox_args.attention_config[i]`: an element of a configured list, compared with a
    // literal right after (program/option_values' local copies read it as that option).
    // (Indexed by a name: `x.shape[1]` and `out[0]` take a part of a value, not a layer's entry.)
    // (Of a configuration object only, `args`, `config`, `cfg`...: `block = self.blocks[i]` is a module.)
    bool element_read = false;
    if (m_ctx.function >= 0 && m_src.is(right, m_k.subscript) &&
        m_src.is(ts_node_child_by_field_id(right, m_k.f_value), m_k.attribute) &&
        m_src.is(ts_node_child_by_field_id(right, m_k.f_subscript), m_k.identifier)) {
      const std::string base = to_lower(m_src.node_text(ts_node_child_by_field_id(right, m_k.f_value)));
      for (std::string_view word : {"args", "config", "cfg", "conf", "opt", "hparams", "params", "settings", "flags"})
        element_read |= base.find(word) != std::string::npos;
    }
    // `self_cond = unet.module.self_cond if isinstance(unet, DistributedDataParallel) else unet.self_cond`: an
    // attribute read through a DDP wrapper or not, kept as the unwrapped read (`unet.self_cond`, a name) for
    // program/option_copies.
    bool unwrapped_read = false;
    if (m_ctx.function >= 0 && m_src.is(right, m_k.conditional_expression) && ts_node_named_child_count(right) == 3) {
      std::string_view a = m_src.node_text(ts_node_named_child(right, 0));
      std::string_view b = m_src.node_text(ts_node_named_child(right, 2));
      if (a.size() < b.size()) std::swap(a, b);
      const auto dot = b.find('.');
      if (m_src.is(ts_node_named_child(right, 0), m_k.attribute) &&
          m_src.is(ts_node_named_child(right, 2), m_k.attribute) && dot != std::string_view::npos &&
          a.size() == b.size() + 7 && a.substr(0, dot) == b.substr(0, dot) && a.substr(dot, 7) == ".module" &&
          a.substr(dot + 7) == b.substr(dot)) {
        unwrapped_read = true;
        fact.value.kind = LiteralKind::name;
        fact.value.value = m_src.str(b);
        fact.value.conditional = {};
      }
    }
    if (fact.value.kind == LiteralKind::other && !cuda_flag && !env_flag && !rebinds_parameter &&
        !conditional_literal && !element_read && !unwrapped_read)
      return;
    fact.target = m_src.name(QualifiedName::from_dotted(fact.target_text));
  }
  fact.at = m_src.span(node);
  fact.ctx = m_ctx;
  m_out.assigns.push_back(std::move(fact));
}

void Walker::field_default(TSNode value, Argument& out) const {
  if (!m_src.is(value, m_k.call)) return;
  const std::string_view fn = m_src.node_text(ts_node_child_by_field_id(value, m_k.f_function));
  const bool field = fn == "field" || fn == "dataclasses.field" || fn == "Field" || fn == "pydantic.Field";
  if (!field) return;
  for (Argument& arg : read_arguments(ts_node_child_by_field_id(value, m_k.f_arguments))) {
    if (arg.keyword != "default" || arg.kind == LiteralKind::other || arg.kind == LiteralKind::name) continue;
    arg.keyword = {};
    out = std::move(arg);
    return;
  }
}

// A literal set under a key of a dict held by a name, recorded as an assignment to `<name>.<key>`:
// - `os.environ["NEURON_CC_FLAGS"] = "--cache_dir=..."` is `os.environ.NEURON_CC_FLAGS`, whatever its
//   value (the pilot request's compile-cache check reads it);
// - `model_kwargs["attn_implementation"] = "flash_attention_2"` or `cfg["backend"] = "nccl"` is
//   `model_kwargs.attn_implementation` (the rules that match `*.attn_implementation` or `*.backend` read
//   keyword dicts like attributes), for a name-like key and a literal value.
void Walker::on_keyed_assignment(TSNode left, std::string_view key, TSNode right, TSNode node) {
  if (m_mode != Mode::full || ts_node_is_null(right) || key.empty()) return;
  const TSNode base = ts_node_child_by_field_id(left, m_k.f_value);
  AssignFact fact;
  if (resolve(base).dotted() == "os.environ") {
    if (key.find('.') != std::string_view::npos) return;
    fact.target = m_src.name(QualifiedName::from_dotted("os.environ." + std::string(key)));
    fact.target_is_import = true;
    fact.value = m_src.literal(right);
  } else {
    const bool name_like = std::all_of(key.begin(), key.end(),
                                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!name_like || (!m_src.is(base, m_k.identifier) && !m_src.is(base, m_k.attribute))) return;
    fact.value = value_literal(right);
    if (!is_constant(fact.value) && !fact.value.conditional) return;
    fact.target = m_src.name(QualifiedName::from_dotted(std::string(m_src.node_text(base)) + "." + std::string(key)));
  }
  fact.target_text = m_src.capped(left);
  fact.at = m_src.span(node);
  fact.ctx = m_ctx;
  m_out.assigns.push_back(std::move(fact));
}

// `return f(...)`, `return model` and `{"roi_heads": build_roi_heads(cfg)}` inside a function: where
// values go, so the program can tell which repo classes a function returns or a config dict carries.
void Walker::on_value(TSNode node, TSSymbol kind) {
  if (m_mode != Mode::full || m_ctx.function < 0) return;
  if (kind == m_k.return_statement) {
    if (ts_node_named_child_count(node) == 1) add_value(ValueSink::returned, {}, ts_node_named_child(node, 0));
    return;
  }
  const auto key = m_src.string_literal(ts_node_child_by_field_id(node, m_k.f_key));
  if (key && !key->empty()) add_value(ValueSink::dict_entry, *key, ts_node_child_by_field_id(node, m_k.f_value));
}

void Walker::add_value(ValueSink sink, std::string key, TSNode value) {
  value = m_src.unwrap_parens(value);
  if (ts_node_is_null(value) || m_ctx.function < 0) return;
  ValueFact fact;
  fact.sink = sink;
  fact.key = m_src.str(cap_text(key, 80));
  if (m_src.is(value, m_k.identifier)) fact.name = m_src.str(m_src.node_text(value));
  fact.value = m_src.span(value);
  fact.ctx = m_ctx;
  m_out.values.push_back(std::move(fact));
}

std::string Walker::callee_label(TSNode call) const {
  const TSNode fn = ts_node_child_by_field_id(call, m_k.f_function);
  const QualifiedName resolved = resolve(fn);
  if (!resolved.empty()) return resolved.dotted();
  if (m_src.is(fn, m_k.attribute))
    return "." + std::string(m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute)));
  return m_src.capped_text(fn, 80);
}

// A resolved name used as a value: the outermost attribute of a chain that is not called, decorated
// with, imported, assigned to or named as a keyword/parameter/definition.
void Walker::on_reference(TSNode node, TSFieldId field) {
  if (m_mode != Mode::full) return;
  if (field != m_k.f_attribute && field != m_k.f_name && field != m_k.f_alias && m_src.is(node, m_k.identifier))
    note_class_like_use(node, field);
  if (field == m_k.f_object || field == m_k.f_attribute || field == m_k.f_name || field == m_k.f_alias) return;
  const TSNode parent = ancestor(1);
  const TSSymbol parent_kind = ts_node_symbol(parent);
  if (field == m_k.f_function && parent_kind == m_k.call) return;
  if (field == m_k.f_left && (parent_kind == m_k.assignment || parent_kind == m_k.augmented_assignment)) return;
  if (parent_kind == m_k.decorator || parent_kind == m_k.dotted_name || parent_kind == m_k.aliased_import ||
      parent_kind == m_k.parameters || parent_kind == m_k.typed_parameter || parent_kind == m_k.import_statement ||
      parent_kind == m_k.import_from_statement)
    return;
  // A private name used as a value (`{"early_config_prune": _prune}`): program/variants asks who uses
  // module-level private helpers.
  if (m_src.is(node, m_k.identifier)) {
    const std::string_view text = m_src.node_text(node);
    if (text.size() > 1 && text[0] == '_' && text[1] != '_') m_out.used_names.emplace_back(text);
  }
  QualifiedName name = resolve(node);
  if (name.empty() || name.dotted().find('.') == std::string::npos) return;
  m_out.references.push_back(ReferenceFact{m_src.name(name), m_src.capped(node, 120), m_src.span(node), m_ctx});
}

// A capitalised plain name the code uses other than by calling it (`[ConvLayer, UpSampleLayer]`,
// `isinstance(m, Block)`, `Block.build(cfg)`, `except BlockError:`): program/variants asks which of the repo's
// classes any code names (calls are call facts). Not a definition, an import, an assignment's target, a parameter,
// an annotation, or `super(Block, self)`, a class naming itself.
void Walker::note_class_like_use(TSNode node, TSFieldId field) {
  const std::string_view text = m_src.node_text(node);
  if (!starts_upper(text)) return;
  const TSNode parent = ancestor(1);
  const TSSymbol parent_kind = ts_node_symbol(parent);
  if (field == m_k.f_function && parent_kind == m_k.call) return;
  if (field == m_k.f_left && (parent_kind == m_k.assignment || parent_kind == m_k.augmented_assignment)) return;
  if (parent_kind == m_k.dotted_name || parent_kind == m_k.aliased_import || parent_kind == m_k.parameters ||
      parent_kind == m_k.typed_parameter || parent_kind == m_k.import_statement ||
      parent_kind == m_k.import_from_statement)
    return;
  if (parent_kind == m_k.argument_list && ts_node_named_child(parent, 0).id == node.id) {
    const TSNode call = ancestor(2);
    if (m_src.is(call, m_k.call) && m_src.node_text(ts_node_child_by_field_id(call, m_k.f_function)) == "super") return;
  }
  // (Nor an annotation, `x: Optional[Block]`: it builds nothing, and whoever passes the value names the class where
  // it builds it. The names annotations spell, `Optional`, `Tensor`, would fill every file's list.)
  for (std::size_t up = 1; up <= 6; ++up) {
    const TSNode above = ancestor(up);
    if (ts_node_is_null(above)) break;
    const TSSymbol kind = ts_node_symbol(above);
    if (kind == m_k.type) return;
    if (kind == m_k.expression_statement || kind == m_k.block || kind == m_k.call) break;
  }
  m_out.used_names.emplace_back(text);
}

}  // namespace tr2audit::facts
