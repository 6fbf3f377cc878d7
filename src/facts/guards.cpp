// Guards: what an if/try/with/lambda tells about the code it encloses (a CUDA-availability check,
// an ImportError fallback, a device-type branch, periodic logging, ...). Text and resolved-name
// heuristics over the condition subtree, walked with the cursor.
#include <algorithm>
#include <cctype>

#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

// `cuda`, `use_cuda`, `has_gpu`, `n_gpu`, `num_gpus`, `cuda_available`, `IS_CUDA_SYSTEM`, `args.cuda`: a name that says
// whether (or how many) CUDA devices there are. A name where more words follow the device word names
// a feature of CUDA instead (`use_cuda_ipc`, `cuda_graph`, `gpu_memory_utilization`): an option, not
// the presence of a device.
bool names_cuda_presence(std::string_view name) {
  for (const std::string_view device : {"cuda", "gpu"}) {
    for (std::size_t at = name.find(device); at != std::string_view::npos; at = name.find(device, at + 1)) {
      std::string_view rest = name.substr(at + device.size());
      if (starts_with(rest, "s")) rest.remove_prefix(1);  // gpus
      if (rest.empty()) return true;
      if (rest.front() != '_') continue;
      rest.remove_prefix(1);
      for (const std::string_view presence :
           {"available", "is_available", "enabled", "ok", "present", "exists", "count", "num", "ids", "id", "device",
            "devices", "only", "system", "machine", "host", "platform", "supported", "support"}) {
        if (rest == presence) return true;
      }
    }
  }
  return false;
}

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

bool is_cuda_probe(const std::string& callee) {
  return callee == "torch.cuda.is_available" || callee == "torch.cuda.device_count" ||
         callee == "torch.cuda.is_initialized" || callee == "torch.backends.cudnn.is_available" ||
         callee == "torch.cuda.is_bf16_supported";
}

bool is_accelerator_probe(const std::string& callee) {
  const std::string lower = to_lower(callee);
  return contains(lower, "xla") || contains(lower, "neuron") || contains(lower, "tpu");
}

/// A name that says XLA, TPU or Neuron as a word of it (`use_xla`, `is_tpu`, `on_neuron`, `torch_neuronx`),
/// not as letters inside another word: `output_mask` and `throughput` hold "tpu".
bool names_xla_device(std::string_view lower_name) {
  while (!lower_name.empty()) {
    const auto underscore = lower_name.find('_');
    const std::string_view word = lower_name.substr(0, underscore);
    if (word == "xla" || word == "tpu" || word == "tpus" || starts_with(word, "neuron")) return true;
    if (underscore == std::string_view::npos) break;
    lower_name.remove_prefix(underscore + 1);
  }
  return false;
}

/// `should_log(step)`, `self.control.should_save`, `is_eval_step`, OLMo's `should_log_optim_metrics_this_step()`: a
/// predicate (or a trainer's per-step flag) that holds every N steps, named for what it paces. Not `should_print`:
/// nxd's Lightning module sets it at every optimizer step.
bool names_periodic_predicate(std::string_view lower_name) {
  static constexpr std::string_view k_paced[] = {"log",    "save",     "eval",    "evaluate", "checkpoint",
                                                 "sample", "validate", "profile", "visualize"};
  for (const std::string_view paced : k_paced) {
    if (starts_with(lower_name, "should_") && lower_name.substr(7, paced.size()) == paced &&
        (lower_name.size() == 7 + paced.size() || lower_name[7 + paced.size()] == '_'))
      return true;
    if (lower_name.size() == 8 + paced.size() && starts_with(lower_name, "is_") && ends_with(lower_name, "_step") &&
        lower_name.substr(3, paced.size()) == paced)
      return true;
  }
  return false;
}

/// `step % log_every == 0`, and so `global_step % ema_every == 1`: after a `%`, a comparison with an
/// integer literal holds once every N steps, whatever the remainder.
bool compares_modulo_with_integer(std::string_view text) {
  const auto modulo = text.find('%');
  if (modulo == std::string_view::npos) return false;
  for (auto eq = text.find("==", modulo); eq != std::string_view::npos; eq = text.find("==", eq + 2)) {
    std::size_t i = eq + 2;
    while (i < text.size() && text[i] == ' ') ++i;
    const std::size_t digits = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    const bool ends =
        i == text.size() || !(std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.');
    if (i > digits && ends) return true;
  }
  return false;
}

/// `is_bnb_available`, `is_flash_attn_2_available`, `cutlass_fp4_available`, `_triton_available`: a function
/// that says whether an optional package or kernel can be used here. A name that is only `is_available`, or
/// that names the device (`torch.cuda.is_available`, `gpu_available`: device probes), is not one.
bool names_availability_probe(std::string_view last) {
  // `is_bnb_available`, `_xformers_available`; `flash_attn_is_installed`, `is_apex_installed`.
  const bool installed = ends_with(last, "_installed");
  if ((!ends_with(last, "_available") && !installed) || last.find("cuda") != std::string_view::npos ||
      last.find("gpu") != std::string_view::npos)
    return false;
  std::string_view what = last.substr(0, last.size() - 10);  // both suffixes are 10 characters
  if (installed && ends_with(what, "_is")) what.remove_suffix(3);
  const bool is_prefixed = starts_with(what, "is_");
  if (is_prefixed) what.remove_prefix(3);
  while (starts_with(what, "_")) what.remove_prefix(1);
  return what.size() >= (is_prefixed ? 1U : 3U);
}

}  // namespace

std::uint16_t Walker::condition_guards(TSNode condition) const {
  if (ts_node_is_null(condition)) return 0;
  std::uint16_t guards = 0;
  const std::string_view whole = m_src.node_text(condition);
  if (contains(whole, "__name__") && contains(whole, "__main__")) guards |= guard_bit(Guard::main_block);
  if (contains(whole, "TYPE_CHECKING")) guards |= guard_bit(Guard::type_checking);
  if (is_periodic_test(condition) || (contains(whole, "%") && starts_with(whole, "not ")))
    guards |= guard_bit(Guard::periodic);
  parse::walk(condition, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter) return true;
    const TSSymbol kind = ts_node_symbol(step.node);
    // `if fused_layer_norm_cuda is None:` loads a module lazily (or builds a singleton): nothing about
    // the device, whatever the name says. (`is not None` after an optional import stays a guard.)
    if (kind == m_k.comparison_operator && ends_with(m_src.node_text(step.node), " is None") &&
        !ends_with(m_src.node_text(step.node), " is not None"))
      return false;
    // `if bnb is not None:` after `try: import bitsandbytes as bnb` / `except ImportError: bnb = None`.
    if (kind == m_k.comparison_operator && ends_with(m_src.node_text(step.node), " is not None")) {
      const std::string_view tested = m_src.node_text(ts_node_named_child(step.node, 0));
      if (std::find(m_optional_imports.begin(), m_optional_imports.end(), tested) != m_optional_imports.end())
        guards |= guard_bit(Guard::import_error_fallback);
    }
    if (kind == m_k.call) {
      const std::string callee = resolve(ts_node_child_by_field_id(step.node, m_k.f_function)).dotted();
      if (is_cuda_probe(callee)) guards |= guard_bit(Guard::cuda_available);
      if (is_accelerator_probe(callee)) guards |= guard_bit(Guard::neuron_branch);
      // hasattr(torch, "accelerator") / torch.accelerator.is_available(): a device-agnostic branch.
      if (starts_with(callee, "torch.accelerator.") ||
          (m_src.node_text(ts_node_child_by_field_id(step.node, m_k.f_function)) == "hasattr" &&
           contains(m_src.node_text(step.node), "accelerator")))
        guards |= guard_bit(Guard::device_branch);
      // if is_bnb_available(): / is_flash_attn_2_available() / cutlass_fp4_available(): an optional dependency
      // (or a capability probe with a fallback), like an ImportError fallback. Not `dist.is_available()`.
      const std::string_view fn = callee.empty() ? m_src.node_text(ts_node_child_by_field_id(step.node, m_k.f_function))
                                                 : std::string_view(callee);
      const std::string_view last = fn.substr(fn.rfind('.') == std::string_view::npos ? 0 : fn.rfind('.') + 1);
      if (names_availability_probe(last)) guards |= guard_bit(Guard::import_error_fallback);
      // `if divisible_by(i, validate_every):` with `def divisible_by(num, den): return (num % den) == 0` in the
      // file, or the helper by that name imported (a convention of lucidrains' repos): every N steps.
      if (last == "divisible_by" || names_periodic_predicate(to_lower(last)) ||
          std::find(m_periodic_functions.begin(), m_periodic_functions.end(), fn) != m_periodic_functions.end())
        guards |= guard_bit(Guard::periodic);
    } else if (kind == m_k.string) {
      const auto value = m_src.string_literal(step.node);
      if (!value) return false;
      if (*value == "cuda" || *value == "cpu" || *value == "mps" || starts_with(*value, "cuda:"))
        guards |= guard_bit(Guard::device_branch);
      if (*value == "nccl" || *value == "NCCL") guards |= guard_bit(Guard::device_branch);  // get_backend() == "nccl"
      if (*value == "xla" || *value == "neuron")
        guards |= guard_bit(Guard::device_branch) | guard_bit(Guard::neuron_branch);
      return false;
    } else if (kind == m_k.identifier) {
      const std::string name = to_lower(m_src.node_text(step.node));
      if (name == "is_cuda" || name == "nccl")  // `dist.get_backend() == dist.Backend.NCCL`
        guards |= guard_bit(Guard::device_branch);
      else if (names_cuda_presence(name))
        guards |= guard_bit(Guard::cuda_available);
      if (names_xla_device(name)) guards |= guard_bit(Guard::neuron_branch);
      if (names_periodic_predicate(name)) guards |= guard_bit(Guard::periodic);
      const std::pair<std::int32_t, std::string_view> local{m_ctx.function, m_src.node_text(step.node)};
      if (std::find(m_periodic_locals.begin(), m_periodic_locals.end(), local) != m_periodic_locals.end())
        guards |= guard_bit(Guard::periodic);
      if (std::find(m_cuda_locals.begin(), m_cuda_locals.end(), local) != m_cuda_locals.end())
        guards |= guard_bit(Guard::cuda_available);
    }
    return true;
  });
  return guards;
}

bool Walker::is_periodic_test(TSNode value) const {
  const std::string_view text = m_src.node_text(value);
  return contains(text, "%") && compares_modulo_with_integer(text);
}

TSNode Walker::sole_return(TSNode definition, std::uint32_t params) const {
  const TSNode list = ts_node_child_by_field_id(definition, m_k.f_parameters);
  const TSNode body = ts_node_child_by_field_id(definition, m_k.f_body);
  if (ts_node_is_null(list) || ts_node_named_child_count(list) != params || ts_node_is_null(body) ||
      ts_node_named_child_count(body) != 1)
    return TSNode{};
  const TSNode only = ts_node_named_child(body, 0);
  if (!m_src.is(only, m_k.return_statement) || ts_node_named_child_count(only) != 1) return TSNode{};
  return ts_node_named_child(only, 0);
}

void Walker::note_helper_predicate(TSNode definition, std::string_view name) {
  // `def divisible_by(num, den): return (num % den) == 0`
  if (const TSNode returned = sole_return(definition, 2); !ts_node_is_null(returned) && is_periodic_test(returned))
    m_periodic_functions.push_back(name);
  // `def exists(val): return val is not None`
  if (const TSNode returned = sole_return(definition, 1); !ts_node_is_null(returned)) {
    const std::string_view param =
        m_src.node_text(ts_node_named_child(ts_node_child_by_field_id(definition, m_k.f_parameters), 0));
    const std::string_view text = m_src.node_text(returned);
    if (text.starts_with(param) && text.substr(param.size()) == " is not None") m_none_tests.push_back(name);
  }
}

void Walker::note_periodic_local(std::string_view name, TSNode value) {
  const std::pair<std::int32_t, std::string_view> local{m_ctx.function, name};
  const auto known = std::find(m_periodic_locals.begin(), m_periodic_locals.end(), local);
  const bool periodic = !ts_node_is_null(value) && is_periodic_test(value);
  if (periodic && known == m_periodic_locals.end()) m_periodic_locals.push_back(local);
  if (!periodic && known != m_periodic_locals.end()) m_periodic_locals.erase(known);
  // `log_timings = log_timings and torch.cuda.is_available()`: a local that holds only where CUDA is.
  const auto probe = std::find(m_cuda_locals.begin(), m_cuda_locals.end(), local);
  const bool cuda = !ts_node_is_null(value) && requires_cuda_probe(value);
  if (cuda && probe == m_cuda_locals.end()) m_cuda_locals.push_back(local);
  if (!cuda && probe != m_cuda_locals.end()) m_cuda_locals.erase(probe);
}

// `torch.cuda.is_available()` alone or as one side of an `and` (`args.cuda and torch.cuda.is_available()`):
// the value is true only where CUDA is. Not under `or`/`not` (`args.cpu or not torch.cuda.is_available()`).
bool Walker::requires_cuda_probe(TSNode value) const {
  const std::vector<TSNode> sides = operands(value, "and");
  return std::any_of(sides.begin(), sides.end(), [&](TSNode side) {
    return m_src.is(side, m_k.call) && is_cuda_probe(resolve(ts_node_child_by_field_id(side, m_k.f_function)).dotted());
  });
}

// `a or (b or c)`: the operands of a chain of one boolean operator, parentheses looked through, left to right;
// the node itself when it is no such chain.
std::vector<TSNode> Walker::operands(TSNode node, std::string_view op) const {
  std::vector<TSNode> out;
  std::vector<TSNode> work{node};
  while (!work.empty()) {
    const TSNode at = m_src.unwrap_parens(work.back());
    work.pop_back();
    if (m_src.is(at, m_k.boolean_operator) && m_src.node_text(ts_node_child_by_field_id(at, m_k.f_operator)) == op) {
      work.push_back(ts_node_child_by_field_id(at, m_k.f_right));
      work.push_back(ts_node_child_by_field_id(at, m_k.f_left));
      continue;
    }
    out.push_back(at);
  }
  return out;
}

// `if not torch.isfinite(grad_norm):` / `if torch.isnan(loss).any() or torch.isinf(loss).any():` (+1): the branch is
// taken only on a non-finite value; `if torch.isfinite(loss):` (-1): its else side is. 0 for anything else.
int Walker::non_finite_test(TSNode condition) const {
  // One test: a call of `isfinite` (+) or `isnan`/`isinf` (-), as a function or a tensor method, perhaps
  // reduced by `.all()` / `.any()` / `.item()`, once or more (`torch.isnan(r).all(dim=1).any()`).
  const auto test_of = [&](TSNode node) -> int {
    if (!m_src.is(node, m_k.call)) return 0;
    TSNode call = node;
    TSNode fn = ts_node_child_by_field_id(node, m_k.f_function);
    for (int reductions = 0; reductions < 4 && m_src.is(fn, m_k.attribute); ++reductions) {
      const std::string_view method = m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute));
      const TSNode object = m_src.unwrap_parens(ts_node_child_by_field_id(fn, m_k.f_object));
      if ((method != "all" && method != "any" && method != "item") || !m_src.is(object, m_k.call)) break;
      call = object;
      fn = ts_node_child_by_field_id(object, m_k.f_function);
    }
    const std::string_view text = m_src.node_text(fn);
    const std::string_view last = text.substr(text.rfind('.') == std::string_view::npos ? 0 : text.rfind('.') + 1);
    // What is tested: `torch.isinf(torch.tensor(norm_type))` asks for the infinity norm, an option, not a value.
    const TSNode args = ts_node_child_by_field_id(call, m_k.f_arguments);
    const TSNode tested = m_src.is(fn, m_k.attribute) && (ts_node_is_null(args) || ts_node_named_child_count(args) == 0)
                              ? ts_node_child_by_field_id(fn, m_k.f_object)
                              : (ts_node_is_null(args) ? TSNode{} : ts_node_named_child(args, 0));
    if (ts_node_is_null(tested)) return 0;
    const std::string_view value = m_src.node_text(tested);
    if (value.find("type") != std::string_view::npos || starts_with(value, "torch.tensor(") ||
        starts_with(value, "float(") || m_src.is(tested, m_k.integer) || m_src.is(tested, m_k.float_) ||
        m_src.is(tested, m_k.string))
      return 0;
    if (last == "isfinite") return 1;
    if (last == "isnan" || last == "isinf") return -1;
    return 0;
  };
  bool negated = false;
  TSNode node = m_src.unwrap_parens(condition);
  while (m_src.is(node, m_k.not_operator)) {
    negated = !negated;
    node = m_src.unwrap_parens(ts_node_named_child(node, 0));
  }
  int sign = 0;
  const std::vector<TSNode> sides = operands(node, "or");
  if (sides.size() > 1) {
    // `torch.isnan(x).any() or torch.isinf(x).any()`: every side a non-finite test.
    for (const TSNode side : sides) {
      if (test_of(side) != -1) return 0;
    }
    sign = -1;
  } else {
    sign = test_of(node);
  }
  if (sign == 0) return 0;
  // A finite test holds on the normal path: `not isfinite` / `isnan` take the rare side.
  return (sign == -1) != negated ? 1 : -1;
}

/// How an except clause whose whole body is one literal answers: `return False` (returned), `gpu_version =
/// None` (assigned), or not at all.
Walker::LiteralAnswer Walker::literal_answer(TSNode except_clause) const {
  const TSNode body = ts_node_named_child(except_clause, ts_node_named_child_count(except_clause) - 1);
  TSNode only =
      m_src.is(body, m_k.block) && ts_node_named_child_count(body) == 1 ? ts_node_named_child(body, 0) : TSNode{};
  if (ts_node_is_null(only)) return LiteralAnswer::none;
  TSNode value{};
  const bool returned = m_src.is(only, m_k.return_statement);
  if (returned && ts_node_named_child_count(only) == 1) {
    value = ts_node_named_child(only, 0);
  } else if (m_src.is(only, m_k.expression_statement) && m_src.is(ts_node_named_child(only, 0), m_k.assignment)) {
    value = ts_node_child_by_field_id(ts_node_named_child(only, 0), m_k.f_right);
  }
  if (ts_node_is_null(value)) return LiteralAnswer::none;
  const Argument literal = m_src.literal(value);
  if (literal.kind != LiteralKind::boolean && literal.kind != LiteralKind::null) return LiteralAnswer::none;
  return returned ? LiteralAnswer::returned : LiteralAnswer::assigned;
}

std::uint16_t Walker::try_guards(TSNode try_statement) const {
  bool catches_import_error = false;
  bool catches_broadly = false;
  bool probe = false;       // a broad except that answers with a literal: `except Exception: return False`
  bool cuda_probe = false;  // the errors a CUDA query raises without a device, answered with a literal
  const std::uint32_t count = ts_node_named_child_count(try_statement);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode clause = ts_node_named_child(try_statement, i);
    if (!m_src.is(clause, m_k.except_clause)) continue;
    // (`except:  # noqa: E722`: a comment is the clause's first named child; the caught types come after it.)
    TSNode first = ts_node_named_child(clause, 0);
    for (std::uint32_t c = 1; !ts_node_is_null(first) && m_src.is(first, m_k.comment); ++c)
      first = ts_node_named_child(clause, c);
    const bool bare = ts_node_is_null(first) || m_src.is(first, m_k.block);
    const std::string_view types = bare ? std::string_view{} : m_src.node_text(first);
    const bool broad = bare || contains(types, "Exception") || contains(types, "BaseException");
    catches_import_error |= contains(types, "ImportError") || contains(types, "ModuleNotFoundError");
    catches_broadly |= broad;
    const LiteralAnswer answer = literal_answer(clause);
    probe |= broad && answer == LiteralAnswer::returned;
    // A torch built without CUDA raises AssertionError ("Torch not compiled with CUDA enabled"); RuntimeError
    // alone is what a CUDA build without a device raises, so only the first holds on a Neuron host.
    cuda_probe |= contains(types, "AssertionError") && answer != LiteralAnswer::none;
  }
  if (catches_import_error) return guard_bit(Guard::import_error_fallback);
  // `try: cc = torch.cuda.get_device_capability() except (RuntimeError, AssertionError): return False`: without
  // CUDA the query raises, and the literal is the answer the caller falls back on.
  if (cuda_probe && calls_cuda(ts_node_child_by_field_id(try_statement, m_k.f_body)))
    return guard_bit(Guard::import_error_fallback);
  if (!catches_broadly) return 0;
  // `try: check_native_kernels(bnb) except Exception: return False`: a capability probe, whose failure
  // (no CUDA, no kernel) is the answer the caller falls back on.
  if (probe) return guard_bit(Guard::import_error_fallback);
  // A broad except counts only around imports and extension builds/loads (a failed build falls back).
  bool body_imports = false;
  parse::walk(ts_node_child_by_field_id(try_statement, m_k.f_body), [&](const parse::WalkStep& step) {
    const TSSymbol kind = ts_node_symbol(step.node);
    body_imports |= kind == m_k.import_statement || kind == m_k.import_from_statement;
    if (kind == m_k.call && step.event == parse::WalkEvent::enter) {
      const std::string callee = resolve(ts_node_child_by_field_id(step.node, m_k.f_function)).dotted();
      body_imports |= callee == "torch.utils.cpp_extension.load" || callee == "torch.utils.cpp_extension.load_inline" ||
                      callee == "importlib.import_module";
    }
    return !body_imports && kind != m_k.function_definition && kind != m_k.class_definition;
  });
  return body_imports ? guard_bit(Guard::import_error_fallback) : 0;
}

bool Walker::calls_cuda(TSNode body) const {
  bool found = false;
  parse::walk(body, [&](const parse::WalkStep& step) {
    const TSSymbol kind = ts_node_symbol(step.node);
    if (kind == m_k.call && step.event == parse::WalkEvent::enter)
      found |=
          starts_with(resolve(ts_node_child_by_field_id(step.node, m_k.f_function)).dotted().view(), "torch.cuda.");
    return !found && kind != m_k.function_definition && kind != m_k.class_definition;
  });
  return found;
}

bool Walker::is_no_grad_with(TSNode with_statement) const {
  bool found = false;
  const TSNode body = ts_node_child_by_field_id(with_statement, m_k.f_body);
  const std::uint32_t count = ts_node_named_child_count(with_statement);
  for (std::uint32_t i = 0; i < count && !found; ++i) {
    const TSNode child = ts_node_named_child(with_statement, i);
    if (ts_node_eq(child, body)) continue;
    parse::walk(child, [&](const parse::WalkStep& step) {
      if (step.event == parse::WalkEvent::enter && m_src.is(step.node, m_k.call)) {
        const std::string callee = resolve(ts_node_child_by_field_id(step.node, m_k.f_function)).dotted();
        found |= callee == "torch.no_grad" || callee == "torch.inference_mode" || callee == "torch.autograd.no_grad";
      }
      return !found;
    });
  }
  return found;
}

bool Walker::is_step_closure_lambda(TSNode lambda) const {
  const TSNode args = ts_node_parent(lambda);
  if (!m_src.is(args, m_k.argument_list)) return false;
  const TSNode call = ts_node_parent(args);
  return resolve(ts_node_child_by_field_id(call, m_k.f_function)).dotted() ==
         "torch_xla.core.xla_model.add_step_closure";
}

// `backend = "nccl"` and then `if device_type in dist.Backend.default_device_backend_map: backend = ...` in the
// same function (torchtitan, torchtune), or `dist.get_default_backend_for_device(device)`: NCCL is the fallback
// for a device torch knows no backend of, and the device's registered backend replaces it, as on a device branch.
void Walker::mark_backend_fallbacks() {
  std::vector<std::int32_t> asking;  // functions that ask torch for the device's backend
  const auto asks = [](std::string_view dotted) {
    return contains(dotted, "default_device_backend_map") || contains(dotted, "get_default_backend_for_device");
  };
  for (const auto& ref : m_out.references) {
    if (asks(ref.name.dotted().view())) asking.push_back(ref.ctx.function);
  }
  for (const auto& call : m_out.calls) {
    if (asks(call.callee.dotted().view()) || asks(call.callee_text.view())) asking.push_back(call.ctx.function);
  }
  if (asking.empty()) return;
  for (auto& assign : m_out.assigns) {
    if (assign.value.kind == LiteralKind::string && assign.value.value == "nccl" &&
        std::find(asking.begin(), asking.end(), assign.ctx.function) != asking.end())
      assign.ctx.guards |= guard_bit(Guard::device_branch);
  }
}

// A name the module binds to an optional library: rebound from the library inside a try that falls back
// (`try: from flash_attn import flash_attn_varlen_func as _f; flash_attn_varlen_func = _f; has_flash_attn = True
// except: has_flash_attn = False`, or `from apex.normalization import FusedRMSNorm; InternRMSNorm = FusedRMSNorm`),
// where the module also binds it outside that try (`flash_attn_varlen_func = None` first, `class InternRMSNorm`,
// or `except ImportError: flash_attn_varlen_func = None`). The module loads without the library, so a call of
// the name runs only where it is installed, behind whatever availability test picks the code that calls it
// (`if not has_flash_attn: config.attn_implementation = "eager"`): a fallback, like a call under the try.
void Walker::mark_optional_library_calls() {
  const auto top = [](const Context& ctx) { return ctx.function < 0 && ctx.klass < 0; };
  const auto in_try = [](const Context& ctx) { return (ctx.guards & guard_bit(Guard::import_error_fallback)) != 0; };
  std::vector<std::string_view> from_library, fallback, flags_on, flags_off;
  for (const auto& fact : m_out.imports) {
    if (top(fact.ctx) && in_try(fact.ctx) && !fact.bound_name.empty()) from_library.push_back(fact.bound_name.view());
  }
  std::vector<std::string_view> bound_outside;  // `x = None`: a fallback only where the module tracks availability
  for (const auto& assign : m_out.assigns) {
    if (!top(assign.ctx) || assign.target.segments().size() != 1) continue;
    const std::string_view name = assign.target_text.view();
    if (assign.value.kind == LiteralKind::boolean)
      (in_try(assign.ctx) && assign.value.value == "True" ? flags_on : flags_off).push_back(name);
    if (in_try(assign.ctx) && assign.value.kind == LiteralKind::name && !assign.value.resolved.empty() &&
        assign.value.resolved.segments().size() > 1)
      from_library.push_back(name);
    else if (!in_try(assign.ctx))
      bound_outside.push_back(name);
  }
  // (`except ImportError: flash_attn_func = None` alone, as flash-attention's own `mha.py` does before `assert
  // flash_attn_func is not None`, says the name may be missing, not that the module works without it; a flag
  // the try turns on and its handler off, `has_flash_attn`, says code asks before it calls.)
  const bool tracks_availability = std::any_of(flags_on.begin(), flags_on.end(), [&](std::string_view name) {
    return std::find(flags_off.begin(), flags_off.end(), name) != flags_off.end();
  });
  if (tracks_availability) fallback = std::move(bound_outside);
  for (const auto& klass : m_out.classes) {
    if (klass.parent_function < 0 && klass.qualname.view().find('.') == std::string_view::npos)
      fallback.push_back(klass.name.view());
  }
  for (const auto& fn : m_out.functions) {
    if (fn.parent < 0 && fn.klass < 0) fallback.push_back(fn.name.view());
  }
  if (from_library.empty() || fallback.empty()) return;
  std::sort(fallback.begin(), fallback.end());
  std::vector<std::string_view> optional;
  for (const std::string_view name : from_library) {
    if (std::binary_search(fallback.begin(), fallback.end(), name)) optional.push_back(name);
  }
  if (optional.empty()) return;
  for (auto& call : m_out.calls) {
    if (call.ctx.function < 0 || !call.method.empty()) continue;
    if (std::find(optional.begin(), optional.end(), call.callee_text.view()) != optional.end())
      call.ctx.guards |= guard_bit(Guard::import_error_fallback);
  }
}

// Functions handed to xm.add_step_closure by name run after the step's graph: mark their facts.
void Walker::finish() {
  std::sort(m_out.name_strings.begin(), m_out.name_strings.end());
  m_out.name_strings.erase(std::unique(m_out.name_strings.begin(), m_out.name_strings.end()), m_out.name_strings.end());
  std::sort(m_out.computed_lookups.begin(), m_out.computed_lookups.end());
  m_out.computed_lookups.erase(std::unique(m_out.computed_lookups.begin(), m_out.computed_lookups.end()),
                               m_out.computed_lookups.end());
  std::sort(m_out.used_names.begin(), m_out.used_names.end());
  m_out.used_names.erase(std::unique(m_out.used_names.begin(), m_out.used_names.end()), m_out.used_names.end());
  mark_backend_fallbacks();
  mark_optional_library_calls();
  if (m_step_closure_names.empty()) return;
  std::vector<bool> closure(m_out.functions.size(), false);
  for (std::size_t i = 0; i < m_out.functions.size(); ++i) {
    const auto& fn = m_out.functions[i];
    closure[i] =
        std::find(m_step_closure_names.begin(), m_step_closure_names.end(), fn.name) != m_step_closure_names.end() ||
        (fn.parent >= 0 && closure[fn.parent]);
  }
  const auto mark = [&](auto& facts) {
    for (auto& fact : facts) {
      if (fact.ctx.function >= 0 && closure[fact.ctx.function]) fact.ctx.guards |= guard_bit(Guard::step_closure);
    }
  };
  mark(m_out.imports);
  mark(m_out.calls);
  mark(m_out.decorators);
  mark(m_out.assigns);
  mark(m_out.devices);
  mark(m_out.patterns);
}

}  // namespace tr2audit::facts
