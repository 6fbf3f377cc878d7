// rules/rule: one compiled rule (docs/rule-format.md). load_rules reads the YAML into a RuleSpec,
// validates it and compiles it into this form: enums instead of strings, name sets and globs ready
// to match, context predicates as bit sets. rules::match applies Rules to facts::FileFacts.
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "tr2audit/core/severity.hpp"
#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/region.hpp"

namespace tr2audit::rules {

/// The fact kind a rule selects (the single key of its `match` block).
/// `reference`: a resolved name used as a value; `op`: a call (or a dtype argument) that the Neuron operator
/// table has a row for; `setting`: a scalar of a YAML/JSON config file, by its key path.
enum class SubjectKind {
  call,
  call_text,
  method,
  import,
  decorator,
  assign,
  device,
  file,
  dependency,
  pattern,
  reference,
  op,
  setting
};

inline constexpr std::array k_all_subject_kinds{SubjectKind::call,    SubjectKind::call_text, SubjectKind::method,
                                                SubjectKind::import,  SubjectKind::decorator, SubjectKind::assign,
                                                SubjectKind::device,  SubjectKind::file,      SubjectKind::dependency,
                                                SubjectKind::pattern, SubjectKind::reference, SubjectKind::op,
                                                SubjectKind::setting};

/// The YAML key of a subject kind ("call", "method", ...).
std::string_view to_string(SubjectKind kind);
/// Parses a subject key; nullopt for anything else.
std::optional<SubjectKind> parse_subject_kind(std::string_view text);

/// Exact names in a hash set plus shell-style globs ('*' spans dots); a pattern without '*' or '?'
/// is exact.
class NameMatcher {
 public:
  /// Adds one name or glob.
  void add(std::string_view pattern);
  /// True when text equals an exact name or matches a glob.
  bool matches(std::string_view text) const;
  bool empty() const { return m_exact.empty() && m_globs.empty(); }
  const std::unordered_set<std::string>& exact() const { return m_exact; }
  const std::vector<std::string>& globs() const { return m_globs; }
  /// Every pattern as written, in insertion order (for docs and explain).
  const std::vector<std::string>& patterns() const { return m_patterns; }

 private:
  std::unordered_set<std::string> m_exact;
  std::vector<std::string> m_globs;
  std::vector<std::string> m_patterns;
};

/// `keyword: {name: [values]}`: the keyword is present with one of the values ("*" = any value).
struct KeywordCondition {
  std::string keyword;
  NameMatcher values;
  bool any_value = false;
};

/// `positional: {index: [values]}`.
struct PositionalCondition {
  std::uint32_t index = 0;
  NameMatcher values;
};

/// Subject-specific conditions of `match`; only those valid for the subject are ever set.
struct Conditions {
  std::vector<KeywordCondition> keywords;
  std::vector<std::string> missing_keywords;
  std::vector<PositionalCondition> positional;
  std::optional<std::uint32_t> min_args;
  std::optional<std::uint32_t> max_args;
  std::optional<NameMatcher> receiver;
  std::optional<NameMatcher> not_receiver;
  std::optional<NameMatcher> value;         ///< assign: the assigned literal; setting: the scalar as written
  std::optional<NameMatcher> any_argument;  ///< some argument's value matches
  std::optional<NameMatcher> not_argument;  ///< no argument's value matches
  std::optional<NameMatcher> exclude;       ///< the matched subject name must not match
  std::optional<NameMatcher> section;       ///< dependency section must match
  std::optional<NameMatcher> not_section;   ///< dependency section must not match
  std::uint8_t device_uses = 0;             ///< bit (1 << DeviceUse); 0 = any
  std::uint8_t origins = 0;                 ///< bit (1 << ImportOrigin); 0 = any (imports, and calls by their callee)
  std::optional<bool> dynamic;
  /// setting: the value, read as a dotted name (`_target_: apex.optimizers.FusedAdam`), is a callee a
  /// GPU-only `call:` rule matches (the knowledge lock-in propagation uses, rules::lockin_knowledge).
  bool value_calls_gpu_only = false;
  std::optional<bool> outside_package;  ///< import: names a package the importing file is not part of
  std::optional<bool> item_argument;    ///< call: its first argument is one item of a comprehension (CallFact)
  /// call: it runs only repo functions that decode into a fixed buffer (program::Program::fixed_buffer_decode)
  std::optional<bool> fixed_buffer_decode;
  /// call: the call is the whole value of its function's `return` statement (`return out.cpu()`)
  std::optional<bool> returned;
  /// call: the call is an argument of a print or logging call (`print("gpus:", torch.cuda.device_count())`)
  std::optional<bool> logged;
  /// call: its value is not the receiver of one of these methods written right after it (`x.cpu().item()`,
  /// `x.cpu().tolist()`): the chain is reported once, by the rule for its last call
  std::optional<NameMatcher> not_chained_into;
  /// call: its result is bound to a local that is only compared or decoded for a message
  /// (`untruncated_ids = tokenizer(prompt, padding="longest").input_ids` read by `torch.equal(...)`)
  std::optional<bool> checked_only;
  std::uint8_t op_statuses = 0;  ///< op subject: bit (1 << OpStatus) under the target profile; 0 = any
  std::uint8_t op_effects = 0;   ///< op subject: bit (1 << OpEffect); 0 = any (with or without an effect)
  std::uint8_t op_kinds = 0;     ///< op subject: bit (1 << OpKind); 0 = any
};

/// `where` / `unless` context predicates; unset members do not take part.
struct Predicates {
  std::bitset<facts::k_region_count> regions;  ///< bit per facts::Region; none = not given
  std::optional<bool> in_loop;
  std::optional<bool> in_training_loop;
  std::optional<bool> runs_once;  ///< program::Program::runs_once
  std::uint16_t guards = 0;       ///< facts::Guard bits; 0 = not given
  std::optional<bool> in_error_region;
  std::optional<bool> in_decorator;  ///< on a line of a decorator expression (`@triton.jit(...)`)
  std::optional<bool> in_assert;     ///< inside an assert statement (facts::Context::in_assert)
  std::optional<bool> in_test;
  std::optional<bool> neuron_stack;  ///< the repo trains with a Neuron stack (program::Program::neuron_stack)
  std::optional<bool> repo_loads_compiled_code;  ///< Program::loads_compiled_code()
  std::vector<std::string> functions;            ///< globs over the innermost function's qualname
  std::vector<std::string> paths;                ///< gitignore-style globs over the file's path

  /// True when no predicate is given.
  bool empty() const;
};

inline constexpr std::uint8_t profile_bit(TargetProfile profile) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(profile));
}
inline constexpr std::uint8_t k_all_profiles_mask =
    profile_bit(TargetProfile::native) | profile_bit(TargetProfile::xla);

struct Rule {
  std::string id;  ///< "cuda-api.cuda-device-literal"
  std::string title;
  Category category = Category::cuda_api;
  Severity severity = Severity::info;
  Confidence confidence = Confidence::medium;
  std::uint8_t profiles = k_all_profiles_mask;  ///< bit set of profile_bit()
  std::array<std::optional<Severity>, k_all_profiles.size()> severity_by_profile{};
  std::array<std::optional<Severity>, facts::k_region_count> severity_by_region{};  ///< wins over the profile's
  std::string message;
  std::string why;
  std::string fix;
  std::string example;
  std::vector<std::string> sources;
  /// `library: [flash-attn]`: the packages (distribution names or globs) a finding of this rule uses
  /// when its subject does not name the package's module (`attn_implementation="flash_attention_2"`).
  /// A rule whose subject is a module or a call into one uses the package of that module's first segment.
  NameMatcher library;
  /// `weighed_by_use: true` (dependency and import rules): a finding is lowered to the strongest use of its
  /// package in the code (rules/dependency_uses); an import rule at medium or below, to the strongest use
  /// of the imported name in its file (the symbol of a package that is always there). On a `setting` rule:
  /// a finding in a config file that no script, config or code of the repo names is lowered to low.
  bool weighed_by_use = false;
  /// `extension_modules: true` (import rules): the modules this rule matches are prebuilt CUDA extensions,
  /// so the repo's calls through them are `extension-call` patterns (program/lockin_seeds).
  bool extension_modules = false;
  /// `catch_all: true`: reported only where no other rule reports a finding on the same line, and once
  /// per line (a low "anything under torch.cuda" net beneath the specific rules).
  bool catch_all = false;
  /// `wrappers: true` (call and method rules): a repo function that returns this call's value is a
  /// wrapper of it, and calls of the wrapper are `wrapped-op-call` patterns (program/wrappers).
  bool wrappers = false;

  SubjectKind subject = SubjectKind::call;
  NameMatcher names;                                               ///< subject names/globs (all subjects but `file`)
  discover::FileKind file_kind = discover::FileKind::cuda_source;  ///< `file` subject only
  Conditions conditions;
  Predicates where;
  Predicates unless;

  std::filesystem::path source_path;  ///< the YAML file
  std::filesystem::path source_dir;   ///< the rules folder it was loaded from (fixtures are found beside it)
  std::uint32_t id_line = 0;          ///< where the id is written in source_path (1-based)
  std::uint32_t id_column = 0;

  /// True when the rule runs under the profile.
  bool applies_to(TargetProfile profile) const { return (profiles & profile_bit(profile)) != 0; }
  /// The severity under a profile (severity_by_profile, else severity).
  Severity severity_for(TargetProfile profile) const;
  /// The severity of a finding in `region` (severity_by_region, else severity_for(profile)).
  Severity severity_for(TargetProfile profile, std::optional<facts::Region> region) const;
  /// Positive signals (neuron-ready) and training-setup facts: their severity says what the code is, not how
  /// far it is from the training path, so guards and reachability do not lower it.
  bool category_keeps_severity() const {
    return category == Category::neuron_ready || category == Category::training_setup;
  }
  /// The part of the id after "<category>.".
  std::string_view name() const;
};

}  // namespace tr2audit::rules
