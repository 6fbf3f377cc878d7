// rules/op_table: status vocabularies, the immutable OpTable and its lookups. Loading lives in
// op_table_load.cpp.
#include "tr2audit/rules/op_table.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "tr2audit/core/text.hpp"

namespace tr2audit::rules {
namespace {

// Methods of Python built-in types (str, bytes, list, dict, set, tuple, int, float, slice) and of
// torch.nn.Module whose names a Tensor method could share. Sorted for binary search.
// clang-format off
constexpr auto k_ambiguous_methods = std::to_array<std::string_view>({
    "add", "append", "apply", "as_integer_ratio", "bfloat16", "bit_length", "buffers", "capitalize", "casefold",
    "center", "children", "clear", "conjugate", "copy", "count", "cpu", "cuda", "decode", "difference", "discard",
    "double", "encode", "endswith", "eval", "expandtabs", "extend", "find", "float", "format", "fromkeys", "get",
    "half", "hex", "index", "indices", "insert", "intersection", "is_integer", "isdigit", "isdisjoint", "issubset", "issuperset",
    "items", "join", "keys", "ljust", "load_state_dict", "lower", "lstrip", "modules", "named_modules", "parameters",
    "partition", "pop", "popitem", "register_buffer", "remove", "replace", "requires_grad_", "reverse", "rfind",
    "rjust", "rsplit", "rstrip", "setdefault", "share_memory", "sort", "split", "splitlines", "startswith",
    "state_dict", "strip", "symmetric_difference", "title", "to", "train", "translate", "type", "union", "update",
    "upper", "values"});
// clang-format on
static_assert(std::is_sorted(k_ambiguous_methods.begin(), k_ambiguous_methods.end()));

constexpr std::string_view k_tensor_prefix = "torch.Tensor.";

}  // namespace

std::string_view to_string(OpStatus status) {
  switch (status) {
    case OpStatus::supported:
      return "supported";
    case OpStatus::caveat:
      return "caveat";
    case OpStatus::replace:
      return "replace";
    case OpStatus::unsupported:
      return "unsupported";
  }
  return "unsupported";
}

std::string_view to_string(OpKind kind) {
  switch (kind) {
    case OpKind::op:
      return "op";
    case OpKind::api:
      return "api";
    case OpKind::library:
      return "library";
    case OpKind::pattern:
      return "pattern";
  }
  return "op";
}

std::string_view to_string(OpEffect effect) {
  return effect == OpEffect::dtype ? "dtype" : "cpu-fallback";
}

std::optional<OpEffect> parse_op_effect(std::string_view text) {
  for (const OpEffect effect : k_all_op_effects) {
    if (to_string(effect) == text) return effect;
  }
  return std::nullopt;
}

std::optional<OpStatus> parse_op_status(std::string_view text) {
  for (const OpStatus status : k_all_op_statuses) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

std::optional<OpKind> parse_op_kind(std::string_view text) {
  for (const OpKind kind : k_all_op_kinds) {
    if (to_string(kind) == text) return kind;
  }
  return std::nullopt;
}

const OpProfileStatus& OpRow::for_profile(TargetProfile profile) const {
  return profile == TargetProfile::xla ? xla : native;
}

std::vector<std::string_view> OpRow::sources() const {
  std::vector<std::string_view> out;
  for (const std::string_view part : split(source, ';')) {
    const std::string_view trimmed = trim(part);
    if (!trimmed.empty()) out.push_back(trimmed);
  }
  return out;
}

OpTable::OpTable(OpTableInfo info, std::vector<OpRow> rows) : m_info(std::move(info)), m_rows(std::move(rows)) {
  for (std::uint32_t i = 0; i < m_rows.size(); ++i) {
    const OpRow& row = m_rows[i];
    m_by_name.emplace(row.name, i);
    for (const auto& alias : row.aliases) m_by_name.emplace(alias, i);
    for (const auto& module : row.modules) m_by_name.emplace(module, i);
  }
}

const OpRow* OpTable::find(std::string_view qualified_name) const {
  const auto it = m_by_name.find(std::string(qualified_name));
  return it == m_by_name.end() ? nullptr : &m_rows[it->second];
}

bool OpTable::is_ambiguous_method(std::string_view method) {
  return std::binary_search(k_ambiguous_methods.begin(), k_ambiguous_methods.end(), method);
}

const OpRow* OpTable::find_tensor_method(std::string_view method) const {
  if (method.empty() || method.find('.') != std::string_view::npos || is_ambiguous_method(method)) return nullptr;
  std::string key(k_tensor_prefix);
  key += method;
  const auto it = m_by_name.find(key);
  if (it == m_by_name.end()) return nullptr;
  const OpRow& row = m_rows[it->second];
  // A module constructor never matches a method; names and aliases do.
  if (std::find(row.modules.begin(), row.modules.end(), key) != row.modules.end()) return nullptr;
  return &row;
}

std::vector<std::string> OpTable::all_names() const {
  std::vector<std::string> out;
  out.reserve(m_by_name.size());
  for (const auto& [name, index] : m_by_name) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string expand_op_name(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> k_prefixes{{
      {"F.", "torch.nn.functional."},
      {"nn.functional.", "torch.nn.functional."},
      {"nn.", "torch.nn."},
      {"Tensor.", "torch.Tensor."},
      {"th.", "torch."},
      {"xm.", "torch_xla.core.xla_model."},
  }};
  for (const auto& [short_prefix, long_prefix] : k_prefixes) {
    if (starts_with(name, short_prefix))
      return std::string(long_prefix) + std::string(name.substr(short_prefix.size()));
  }
  return std::string(name);
}

}  // namespace tr2audit::rules
