// rules/op_table: the Neuron operator-support table (rules/neuron-ops.yaml). Each row gives an op,
// API, library or pattern its status under both target profiles (native TorchNeuron, legacy XLA)
// with notes, the Neuron alternative and its sources. Loaded strictly, immutable afterwards, looked
// up by qualified name, alias, nn module constructor or bare Tensor method name.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/severity.hpp"

namespace tr2audit::rules {

/// How well a target supports a row: ordered from best to worst.
enum class OpStatus { supported, caveat, replace, unsupported };
/// What a row describes: an operator, another API, a whole library, or a usage pattern.
enum class OpKind { op, api, library, pattern };
/// What a non-supported status means at run time, when the row's evidence says so (optional; rules
/// select on it): every call runs on the host (CPU fallback), or the dtype is not a NeuronCore type.
enum class OpEffect { cpu_fallback, dtype };

inline constexpr std::array k_all_op_statuses{OpStatus::supported, OpStatus::caveat, OpStatus::replace,
                                              OpStatus::unsupported};
inline constexpr std::array k_all_op_kinds{OpKind::op, OpKind::api, OpKind::library, OpKind::pattern};
inline constexpr std::array k_all_op_effects{OpEffect::cpu_fallback, OpEffect::dtype};

/// The YAML spelling ("supported", "caveat", "replace", "unsupported").
std::string_view to_string(OpStatus status);
/// The YAML spelling ("op", "api", "library", "pattern").
std::string_view to_string(OpKind kind);
/// The YAML spelling ("cpu-fallback", "dtype").
std::string_view to_string(OpEffect effect);
/// Parses an effect word; nullopt for anything else.
std::optional<OpEffect> parse_op_effect(std::string_view text);
/// Parses a status word; nullopt for anything else.
std::optional<OpStatus> parse_op_status(std::string_view text);
/// Parses a kind word; nullopt for anything else.
std::optional<OpKind> parse_op_kind(std::string_view text);

/// The status of a row under one target profile, with the explanation shown to users.
struct OpProfileStatus {
  OpStatus status = OpStatus::supported;
  std::string note;                ///< starts with "inferred:" when the status rests on reasoning
  std::optional<OpEffect> effect;  ///< only on a non-supported status
};

struct OpRow {
  std::string name;  ///< fully qualified Python name, or a pattern's description
  OpKind kind = OpKind::op;
  OpProfileStatus native;
  OpProfileStatus xla;
  std::string alternative;           ///< the Neuron equivalent, or empty
  std::vector<std::string> aliases;  ///< other names of the same op (torch.Tensor.nonzero, torch.special.erf, ...)
  std::vector<std::string> modules;  ///< nn module constructors that map onto this op (torch.nn.Conv3d)
  std::string source;                ///< '; '-separated doc paths / URLs, never empty
  bool inferred = false;             ///< some profile's status rests on reasoning rather than a source statement
  std::uint32_t line = 0;            ///< 1-based line of the row in the YAML file

  /// The status under a target profile.
  const OpProfileStatus& for_profile(TargetProfile profile) const;
  /// The individual sources, split on ';' and trimmed.
  std::vector<std::string_view> sources() const;
};

/// The table's header: data version, the Neuron SDK release it was checked against, and when.
struct OpTableInfo {
  std::string version;
  std::string neuron_sdk;
  std::string checked;  ///< YYYY-MM-DD
};

struct LoadedOpTable;

/// The loaded table. Every name, alias and module constructor is unique across rows.
class OpTable {
 public:
  /// Reads and validates a table file. Never throws: any error is a Problem (invalid_op_table) and
  /// then no table is returned (the loader is strict: one bad row rejects the file).
  static LoadedOpTable load(const std::filesystem::path& file);
  /// Same as load, from YAML text; `shown_path` names the file in problems.
  static LoadedOpTable load_text(std::string_view yaml_text, const std::filesystem::path& shown_path);

  /// The row whose name, alias or module constructor equals qualified_name, or nullptr.
  const OpRow* find(std::string_view qualified_name) const;
  /// The row of `torch.Tensor.<method>` (by name or alias) for a bare method call `x.method()` whose
  /// receiver is unknown, or nullptr when no such row exists or the name is ambiguous.
  /// Ambiguity rule: a method name is ambiguous when a Python built-in type (str, bytes, list, dict,
  /// set, tuple, int, float) or torch.nn.Module also defines it (`add`, `sort`, `split`, `index`,
  /// `count`, `copy`, `get`, `items`, `update`, `to`, `cuda`, `float`, `half`, ...), so the call may
  /// not be a Tensor call at all. NumPy arrays share most Tensor method names (`sum`, `item`,
  /// `reshape`) and are deliberately not considered: callers that resolved a numpy receiver skip this.
  const OpRow* find_tensor_method(std::string_view method) const;
  /// True when find_tensor_method treats this bare method name as ambiguous.
  static bool is_ambiguous_method(std::string_view method);

  const OpTableInfo& info() const { return m_info; }
  std::span<const OpRow> rows() const { return m_rows; }
  /// Every name, alias and module constructor, sorted (for "did you mean" suggestions).
  std::vector<std::string> all_names() const;

 private:
  OpTable(OpTableInfo info, std::vector<OpRow> rows);

  OpTableInfo m_info;
  std::vector<OpRow> m_rows;
  std::unordered_map<std::string, std::uint32_t> m_by_name;  ///< name / alias / module -> row index
};

/// The result of loading: a table when there were no problems, else the problems (sorted by line).
struct LoadedOpTable {
  std::optional<OpTable> table;
  std::vector<Problem> problems;
};

/// Expands the usual import aliases of a short name: "F.x" -> "torch.nn.functional.x",
/// "nn.X" -> "torch.nn.X", "Tensor.x" -> "torch.Tensor.x", "th.x" -> "torch.x",
/// "xm.x" -> "torch_xla.core.xla_model.x"; other names are returned unchanged.
std::string expand_op_name(std::string_view name);

}  // namespace tr2audit::rules
