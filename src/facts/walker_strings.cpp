// String literals: the names a registry or a config may select by (`"RROIHeads"`), the module-level tables that
// map names to code (dispatch tables, tables of defaults), and device strings (`"cuda"`, `f"cuda:{rank}"`) with
// what the code does with them (places something on a device, or only compares).
#include "facts/walker.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::facts {
namespace {

// "cuda", "cuda:0", "xla", "neuron:3", "cpu", "mps", ...
bool is_device_string(std::string_view value) {
  const auto colon = value.find(':');
  const std::string_view type = value.substr(0, colon);
  static constexpr std::string_view k_types[] = {"cuda", "xla", "neuron", "cpu", "mps", "npu", "hpu", "xpu"};
  bool known = false;
  for (std::string_view candidate : k_types) known |= type == candidate;
  if (!known) return false;
  if (colon == std::string_view::npos) return true;
  const std::string_view index = value.substr(colon + 1);
  if (index.empty() || index.size() > 3) return false;
  for (char c : index) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

namespace {

// `"RROIHeads"`, `"torch.optim.AdamW"`: an identifier or a dotted chain of them, short.
bool names_a_definition(std::string_view text) {
  if (text.empty() || text.size() > 128) return false;
  bool start = true;
  for (const char c : text) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (letter || (digit && !start)) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

}  // namespace

// An entry of `__all__ = [...]` (or `__all__ += (...)`): a re-export list, not a use of the name.
bool Walker::in_dunder_all(std::size_t up) const {
  for (TSNode at = ancestor(up);; at = ancestor(++up)) {
    if (ts_node_is_null(at)) return false;
    if (m_src.is(at, m_k.list) || m_src.is(at, m_k.tuple) || m_src.is(at, m_k.parenthesized_expression) ||
        m_src.is(at, m_k.binary_operator) || m_src.is(at, m_k.expression_list))
      continue;
    if (!m_src.is(at, m_k.assignment) && !m_src.is(at, m_k.augmented_assignment)) return false;
    return m_src.node_text(ts_node_child_by_field_id(at, m_k.f_left)) == "__all__";
  }
}

// `@KernelPlugin("liger_kernel").register()` / `@MODELS.register("gpt2")`: the name an entry is registered
// under; it names the entry, it does not select it.
bool Walker::in_registration(std::size_t up) const {
  for (TSNode at = ancestor(up);; at = ancestor(++up)) {
    if (ts_node_is_null(at)) return false;
    if (m_src.is(at, m_k.argument_list) || m_src.is(at, m_k.call) || m_src.is(at, m_k.attribute) ||
        m_src.is(at, m_k.keyword_argument))
      continue;
    return m_src.is(at, m_k.decorator) && m_src.node_text(at).find(".register") != std::string_view::npos;
  }
}

// `ModulatedDeformConv = create_dummy_class("ModulatedDeformConv", ...)`: the string names the stand-in the
// call builds for the name it is bound to, not a class something looks up by name.
bool Walker::names_own_binding(std::size_t up, std::string_view value) const {
  if (!m_src.is(ancestor(up), m_k.argument_list) || !m_src.is(ancestor(up + 1), m_k.call)) return false;
  const TSNode assignment = ancestor(up + 2);
  if (!m_src.is(assignment, m_k.assignment)) return false;
  const TSNode left = ts_node_child_by_field_id(assignment, m_k.f_left);
  return m_src.is(left, m_k.identifier) && m_src.node_text(left) == value;
}

namespace {

// `ALL_ATTENTION_FUNCTIONS`, `ACT2FN`: a constant's name (letters upper case, at least one letter).
bool upper_case_name(std::string_view name) {
  bool letter = false;
  for (const char c : name) {
    if (c >= 'a' && c <= 'z') return false;
    letter |= c >= 'A' && c <= 'Z';
  }
  return letter;
}

}  // namespace

void Walker::on_dispatch_table(TSNode left, TSNode right) {
  if (m_ctx.function >= 0 || m_ctx.klass >= 0 || !m_src.is(right, m_k.dictionary)) return;
  const std::string_view table = m_src.node_text(left);
  if (!upper_case_name(table)) return;
  const std::uint32_t count = ts_node_named_child_count(right);
  std::vector<DispatchEntry> entries;
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode pair = ts_node_named_child(right, i);
    if (m_src.is(pair, m_k.comment)) continue;
    if (!m_src.is(pair, m_k.pair)) return;  // `**OTHER`: not a plain table
    const auto key = m_src.string_literal(ts_node_child_by_field_id(pair, m_k.f_key));
    if (!key || !names_a_definition(*key)) return;
    const TSNode value = m_src.unwrap_parens(ts_node_child_by_field_id(pair, m_k.f_value));
    DispatchEntry entry;
    entry.table = m_src.str(table);
    entry.key = m_src.str(*key);
    if (m_src.is(value, m_k.identifier)) entry.name = m_src.str(m_src.node_text(value));
    entry.value = m_src.span(value);
    entries.push_back(std::move(entry));
  }
  if (entries.size() < 2) return;
  m_out.dispatch_entries.insert(m_out.dispatch_entries.end(), std::make_move_iterator(entries.begin()),
                                std::make_move_iterator(entries.end()));
}

void Walker::on_defaults_table(TSNode left, TSNode right) {
  if (m_ctx.function >= 0 || m_ctx.klass >= 0 || ts_node_is_null(right) || !m_src.is(right, m_k.dictionary)) return;
  const std::string_view table = m_src.node_text(left);
  if (to_lower(table).find("default") == std::string::npos) return;
  const std::uint32_t count = ts_node_named_child_count(right);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode pair = ts_node_named_child(right, i);
    if (!m_src.is(pair, m_k.pair)) continue;
    const auto key = m_src.string_literal(ts_node_child_by_field_id(pair, m_k.f_key));
    if (!key || key->empty() || !std::all_of(key->begin(), key->end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
      continue;
    const TSNode value = m_src.unwrap_parens(ts_node_child_by_field_id(pair, m_k.f_value));
    AssignFact fact;
    fact.value = value_literal(value);
    if (!is_constant(fact.value)) continue;
    fact.target = m_src.name(QualifiedName::from_dotted(std::string(table) + "." + *key));
    fact.target_text = m_src.str(std::string(table) + "[\"" + *key + "\"]");
    fact.at = m_src.span(pair);
    fact.ctx = m_ctx;
    m_out.assigns.push_back(std::move(fact));
  }
}

// The key of a pair in `TABLE = {...}` at module level.
bool Walker::dispatch_key(std::size_t up) const {
  const TSNode pair = ancestor(up);
  if (!m_src.is(pair, m_k.pair) || m_ctx.function >= 0 || m_ctx.klass >= 0) return false;
  if (!ts_node_eq(ts_node_child_by_field_id(pair, m_k.f_key), ancestor(up - 1))) return false;
  const TSNode assignment = ancestor(up + 2);
  if (!m_src.is(ancestor(up + 1), m_k.dictionary) || !m_src.is(assignment, m_k.assignment)) return false;
  const TSNode left = ts_node_child_by_field_id(assignment, m_k.f_left);
  return m_src.is(left, m_k.identifier) && upper_case_name(m_src.node_text(left));
}

void Walker::on_subscript(TSNode node) {
  if (m_mode != Mode::full) return;
  const TSNode value = ts_node_child_by_field_id(node, m_k.f_value);
  const TSNode key = ts_node_child_by_field_id(node, m_k.f_subscript);
  if (ts_node_is_null(key) || m_src.is(key, m_k.string)) return;
  std::string_view name;
  if (m_src.is(value, m_k.identifier)) {
    name = m_src.node_text(value);
  } else if (m_src.is(value, m_k.attribute)) {
    name = m_src.node_text(ts_node_child_by_field_id(value, m_k.f_attribute));
  } else {
    return;
  }
  if (upper_case_name(name)) m_out.computed_lookups.emplace_back(name);
}

bool Walker::enum_class(std::int32_t klass) const {
  if (klass < 0 || static_cast<std::size_t>(klass) >= m_out.classes.size()) return false;
  const auto& bases = m_out.classes[static_cast<std::size_t>(klass)].bases;
  return std::any_of(bases.begin(), bases.end(), [](const QualifiedName& base) {
    const std::string_view name = base.last_segment();
    return name == "Enum" || name == "StrEnum" || name == "IntEnum" || name == "Flag" || ends_with(name, "Enum");
  });
}

std::optional<std::string> Walker::indexed_device_fstring(TSNode node) const {
  std::string prefix;
  std::string index;
  const std::uint32_t count = ts_node_named_child_count(node);
  for (std::uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(node, i);
    if (m_src.is(child, m_k.interpolation)) {
      if (!index.empty()) return std::nullopt;  // one computed index only
      index = m_src.node_text(child);
    } else if (m_src.is(child, m_k.string_content)) {
      if (!index.empty()) return std::nullopt;  // nothing after the index
      prefix += m_src.node_text(child);
    }
  }
  if (index.empty() || prefix.empty() || prefix.back() != ':' || index.size() > 64) return std::nullopt;
  prefix.pop_back();
  if (!is_device_string(prefix)) return std::nullopt;
  return prefix + ":" + index;
}

void Walker::on_string(TSNode node) {
  if (m_mode != Mode::full) return;
  std::size_t up = 1;  // node is the one being entered: its ancestors are on the walk's path
  TSNode parent = ancestor(up);
  if (m_src.is(parent, m_k.expression_statement)) return;  // a docstring or bare string
  const auto value = m_src.string_literal(node);
  // `if cfg.attn == "ring":` tests for a name a config may hold; it selects nothing. Nor does a member of a
  // collection a value is tested against (`assert pooler_type in ["ROIAlignRotated"]`).
  const bool compared = m_src.is(parent, m_k.comparison_operator) ||
                        ((m_src.is(parent, m_k.list) || m_src.is(parent, m_k.tuple) || m_src.is(parent, m_k.set)) &&
                         m_src.is(ancestor(up + 1), m_k.comparison_operator));
  if (value && names_a_definition(*value) && !in_dunder_all(up) && !dispatch_key(up) && !in_registration(up) &&
      !compared && !names_own_binding(up, *value))
    m_out.name_strings.push_back(m_src.str(*value));
  // `sources=["csrc/fftconv_cuda.cu"]`, `glob("*.cu")`: what a build compiles (f-strings as written).
  const std::string_view written = value ? std::string_view(*value) : m_src.node_text(node);
  if (m_out.source_file_strings.size() < k_max_source_strings && written.find(".cu") != std::string_view::npos) {
    std::vector<std::string> names;
    cuda_source_names(written, names);
    if (!names.empty()) m_out.source_file_strings.push_back(m_src.str(written));
  }
  // `f"cuda:{local_rank}"`: a device type and an index computed at run time.
  const std::optional<std::string> device =
      value ? (is_device_string(*value) ? value : std::nullopt) : indexed_device_fstring(node);
  if (!device) return;
  // `getattr(torch, "cuda", None)`, `hasattr(torch, "cuda")`: an attribute's name, not a device.
  if (m_src.is(parent, m_k.argument_list) && ts_node_eq(ts_node_named_child(parent, 1), node)) {
    const std::string_view fn = m_src.node_text(ts_node_child_by_field_id(ancestor(up + 1), m_k.f_function));
    if (fn == "getattr" || fn == "hasattr" || fn == "setattr" || fn == "delattr") return;
  }
  DeviceLiteralFact fact;
  fact.value = m_src.str(*device);
  if (m_src.is(parent, m_k.keyword_argument)) {
    fact.keyword = m_src.str(m_src.node_text(ts_node_child_by_field_id(parent, m_k.f_name)));
    parent = ancestor(++up);
  }
  // `device.type in ["cuda", "npu"]`: a list of devices compared against is a comparison too.
  std::size_t container_up = up;
  TSNode container = parent;
  while (m_src.is(container, m_k.list) || m_src.is(container, m_k.tuple) ||
         (!ts_node_is_null(container) && std::string_view(ts_node_type(container)) == "set"))
    container = ancestor(++container_up);
  // `try_device.startswith("cuda")`, `str(device).find("cuda")`: a string method that tests for the device name.
  const auto string_test = [&] {
    const TSNode fn = ts_node_child_by_field_id(ancestor(up + 1), m_k.f_function);
    if (!m_src.is(fn, m_k.attribute)) return false;
    const std::string_view method = m_src.node_text(ts_node_child_by_field_id(fn, m_k.f_attribute));
    return method == "startswith" || method == "endswith" || method == "find" || method == "rfind" ||
           method == "count" || method == "index";
  };
  if (m_src.is(parent, m_k.argument_list) && string_test()) {
    fact.use = DeviceUse::comparison;
  } else if (m_src.is(parent, m_k.argument_list)) {
    fact.use = DeviceUse::call_argument;
    fact.callee = m_src.str(callee_label(ancestor(up + 1)));
  } else if (m_src.is(parent, m_k.comparison_operator) || m_src.is(container, m_k.comparison_operator)) {
    fact.use = DeviceUse::comparison;
  } else {
    while (m_src.is(parent, m_k.conditional_expression) || m_src.is(parent, m_k.parenthesized_expression))
      parent = ancestor(++up);
    fact.use = m_src.is(parent, m_k.assignment) ? DeviceUse::assignment
               : m_src.is(parent, m_k.default_parameter) || m_src.is(parent, m_k.typed_default_parameter)
                   ? DeviceUse::parameter_default
                   : DeviceUse::other;
    // `device="cuda"`: which parameter it is the default of. Only a parameter named for a device
    // (`device`, `deviceL`, `device_map`, `map_location`): stylegan3's `impl='cuda'` picks a kernel, and falls back
    // to the reference code on any other device.
    if (fact.use == DeviceUse::parameter_default) {
      const std::string_view param = m_src.node_text(ts_node_child_by_field_id(parent, m_k.f_name));
      const std::string lower = to_lower(param);
      if (lower.find("device") != std::string::npos || lower == "dev" || lower == "map_location")
        fact.keyword = m_src.str(param);
      else
        fact.use = DeviceUse::other;
    }
    // `class DeviceType(StrEnum): CUDA = "cuda"`: an enum member names a device to compare against.
    if (fact.use == DeviceUse::assignment && m_ctx.klass >= 0 && m_ctx.function < 0 && enum_class(m_ctx.klass))
      fact.use = DeviceUse::comparison;
  }
  fact.at = m_src.span(node);
  fact.ctx = m_ctx;
  m_out.devices.push_back(std::move(fact));
}

}  // namespace tr2audit::facts
