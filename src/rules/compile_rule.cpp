// Compiles a RuleSpec into a Rule: vocabularies, id/category/file-name agreement, condition
// applicability, message placeholders; builds the name matchers and predicate bit sets.
#include <algorithm>
#include <type_traits>

#include "rule_spec.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "vocabulary.hpp"

namespace tr2audit::rules {

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

template <class T, std::size_t N>
std::vector<std::string> names_of(const std::array<T, N>& values) {
  std::vector<std::string> out;
  out.reserve(N);
  for (T value : values) out.emplace_back(to_string(value));
  return out;
}

bool is_kebab(std::string_view name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && name[i - 1] != '-');
    if (!ok) return false;
  }
  return true;
}

/// Which subjects each condition applies to.
const std::vector<std::pair<std::string_view, std::vector<SubjectKind>>>& condition_subjects() {
  using S = SubjectKind;
  static const std::vector<std::pair<std::string_view, std::vector<SubjectKind>>> k_table{
      {"keyword", {S::call, S::call_text, S::method, S::decorator}},
      {"missing_keyword", {S::call, S::call_text, S::method, S::decorator}},
      {"positional", {S::call, S::call_text, S::method}},
      {"min_args", {S::call, S::call_text, S::method}},
      {"max_args", {S::call, S::call_text, S::method}},
      {"any_argument", {S::call, S::call_text, S::method}},
      {"not_argument", {S::call, S::call_text, S::method}},
      {"exclude",
       {S::call, S::call_text, S::method, S::import, S::decorator, S::assign, S::device, S::dependency, S::pattern,
        S::reference, S::op, S::setting}},
      {"receiver", {S::method}},
      {"not_receiver", {S::method}},
      {"value", {S::assign, S::setting, S::dependency}},
      {"value_calls_gpu_only", {S::setting}},
      {"use", {S::device}},
      {"origin", {S::import, S::call}},
      {"dynamic", {S::import}},
      {"outside_package", {S::import}},
      {"item_argument", {S::call, S::call_text, S::method}},
      {"fixed_buffer_decode", {S::call, S::call_text, S::method}},
      {"returned", {S::call, S::call_text, S::method}},
      {"logged", {S::call, S::call_text, S::method}},
      {"not_chained_into", {S::call, S::call_text, S::method}},
      {"checked_only", {S::call, S::call_text, S::method}},
      {"section", {S::dependency}},
      {"not_section", {S::dependency}},
      {"status", {S::op}},
      {"effect", {S::op}},
      {"op_kind", {S::op}},
  };
  return k_table;
}

/// "torch.cuda.*", "F.gelu", "*": non-empty segments of identifier characters and glob wildcards.
bool is_dotted_glob(std::string_view name) {
  bool segment_empty = true;
  for (const char c : name) {
    if (c == '.') {
      if (segment_empty) return false;
      segment_empty = true;
      continue;
    }
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word && c != '*' && c != '?') return false;
    segment_empty = false;
  }
  return !segment_empty;
}

/// A name as shown in an error: control characters escaped, at most 80 bytes.
std::string printable(std::string_view name) {
  std::string out;
  for (const char c : name.substr(0, 80)) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += "\\x";
      out += "0123456789abcdef"[(static_cast<unsigned char>(c) >> 4) & 0xf];
      out += "0123456789abcdef"[static_cast<unsigned char>(c) & 0xf];
    } else {
      out += c;
    }
  }
  return name.size() > 80 ? out + "..." : out;
}

class Compiler {
 public:
  Compiler(const RuleSpec& spec, std::vector<Problem>& problems) : m_spec(spec), m_problems(problems) {}

  void error(Pos at, std::string message) {
    m_problems.push_back(rule_problem(m_spec.path, at, std::move(message)));
    m_failed = true;
  }
  bool failed() const { return m_failed; }

  /// "unknown <what> 'x'; did you mean 'y'? (valid: a, b, c)".
  void unknown_word(const Text& word, std::string_view what, const std::vector<std::string>& valid) {
    std::string message = "unknown " + std::string(what) + " '" + word.value + "'";
    const std::string guess = suggest(word.value, valid);
    if (!guess.empty()) message += "; did you mean '" + guess + "'?";
    error(word.at, message + " (valid: " + join(valid) + ")");
  }

  template <class T, class Parse>
  std::optional<T> parse_enum(const Text& word, std::string_view what, Parse parse,
                              const std::vector<std::string>& valid) {
    std::optional<T> value = parse(word.value);
    if (!value) unknown_word(word, what, valid);
    return value;
  }

  /// The bit set of listed words: 1 << value, or the value itself for enums that are bits (Guard).
  template <class T>
  std::uint16_t word_bits(const TextList& list, const Vocabulary<T>& vocabulary, std::string_view what) {
    std::uint16_t bits = 0;
    for (const Text& word : list) {
      if (auto value = lookup(vocabulary, word.value)) {
        if constexpr (std::is_same_v<T, facts::Guard>) {
          bits |= facts::guard_bit(*value);
        } else {
          bits |= static_cast<std::uint16_t>(1u << static_cast<unsigned>(*value));
        }
      } else {
        unknown_word(word, what, words(vocabulary));
      }
    }
    return bits;
  }

  /// Literal values: Python booleans are capitalised; catch YAML-style `true`.
  NameMatcher literals(const TextList& list) {
    NameMatcher matcher;
    for (const Text& item : list) {
      if (item.value == "true" || item.value == "false") {
        error(item.at, "literal '" + item.value + "' never matches Python code; did you mean '\"" +
                           std::string(item.value == "true" ? "True" : "False") + "\"'?");
      }
      matcher.add(item.value);
    }
    return matcher;
  }

  static NameMatcher plain(const TextList& list) {
    NameMatcher matcher;
    for (const Text& item : list) matcher.add(item.value);
    return matcher;
  }

  void check_id(const Rule& rule, const std::filesystem::path& file) {
    const std::size_t dot = m_spec.id.value.find('.');
    if (dot == std::string::npos || !is_kebab(std::string_view(m_spec.id.value).substr(dot + 1))) {
      error(m_spec.id.at, "id '" + m_spec.id.value + "' must be '<category>.<kebab-name>' (lower case, digits, '-')");
      return;
    }
    const std::string prefix = m_spec.id.value.substr(0, dot);
    if (prefix != to_string(rule.category)) {
      error(m_spec.id.at, "id '" + m_spec.id.value + "' starts with '" + prefix + "' but the category is '" +
                              std::string(to_string(rule.category)) + "'");
    }
    const std::string expected = m_spec.id.value.substr(dot + 1) + ".yaml";
    if (!file.empty() && file.filename().string() != expected) {
      error(m_spec.id.at, "file name '" + file.filename().string() + "' does not match the id '" + m_spec.id.value +
                              "': name the file '" + expected + "'");
    }
  }

  void check_placeholders(const Text& message) {
    const auto& allowed = message_placeholders();
    std::size_t open = message.value.find('{');
    while (open != std::string::npos) {
      const std::size_t close = message.value.find('}', open);
      if (close == std::string::npos) break;
      const std::string name = message.value.substr(open + 1, close - open - 1);
      if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
        std::string text = "unknown placeholder '{" + name + "}' in message";
        const std::string guess = suggest(name, allowed);
        if (!guess.empty()) text += "; did you mean '{" + guess + "}'?";
        error(message.at, text + " (valid: " + join(allowed) + ")");
      }
      open = message.value.find('{', close);
    }
  }

  void profiles(Rule& rule) {
    const std::vector<std::string> valid = names_of(k_all_profiles);
    if (m_spec.profiles) {
      rule.profiles = 0;
      for (const Text& word : *m_spec.profiles) {
        if (auto p = parse_enum<TargetProfile>(word, "profile", parse_target_profile, valid)) {
          rule.profiles |= profile_bit(*p);
        }
      }
    }
    const std::vector<std::string> severities = names_of(k_all_severities);
    for (const SeverityOverride& entry : m_spec.severity_by_profile) {
      auto p = parse_enum<TargetProfile>(entry.profile, "profile", parse_target_profile, valid);
      auto s = parse_enum<Severity>(entry.severity, "severity", parse_severity, severities);
      if (p && s) rule.severity_by_profile[static_cast<std::size_t>(*p)] = *s;
    }
    for (const SeverityOverride& entry : m_spec.severity_by_region) {
      auto r = lookup(region_vocabulary(), entry.profile.value);
      if (!r) unknown_word(entry.profile, "region", words(region_vocabulary()));
      auto s = parse_enum<Severity>(entry.severity, "severity", parse_severity, severities);
      if (r && s) rule.severity_by_region[static_cast<std::size_t>(*r)] = *s;
    }
  }

  /// Bits (1 << value) of the op-table words a list names (statuses, effects, kinds).
  template <class T, std::size_t N, class Parse>
  std::uint8_t op_bits(const std::optional<TextList>& list, std::string_view what, Parse parse,
                       const std::array<T, N>& all) {
    std::uint8_t bits = 0;
    if (!list) return bits;
    for (const Text& word : *list) {
      if (auto value = parse_enum<T>(word, what, parse, names_of(all))) bits |= enum_bit(*value);
    }
    return bits;
  }

  void subject(Rule& rule) {
    const MatchSpec& m = m_spec.match;
    rule.subject = *parse_subject_kind(m.subject.value);  // read_rule_spec only accepts subject keys
    if (rule.subject == SubjectKind::file) {
      if (auto kind = lookup(file_kind_vocabulary(), m.names.front().value)) {
        rule.file_kind = *kind;
      } else {
        unknown_word(m.names.front(), "file kind", words(file_kind_vocabulary()));
      }
      return;
    }
    // `op` names are globs over table row names, which may be patterns ("torch.Tensor.to(dtype=...)").
    const bool dotted = rule.subject == SubjectKind::call || rule.subject == SubjectKind::method ||
                        rule.subject == SubjectKind::import || rule.subject == SubjectKind::decorator ||
                        rule.subject == SubjectKind::reference;
    for (const Text& name : m.names) {
      if (dotted && !is_dotted_glob(name.value)) {
        error(name.at, "'" + printable(name.value) + "' is not a dotted Python name or glob (letters, digits, '_', " +
                           "'*' and '?' between dots)");
        continue;
      }
      rule.names.add(name.value);
    }
  }

  void check_applicability(SubjectKind subject) {
    for (const Text& key : m_spec.match.condition_keys) {
      for (const auto& [name, subjects] : condition_subjects()) {
        if (name != key.value || std::find(subjects.begin(), subjects.end(), subject) != subjects.end()) continue;
        std::vector<std::string> valid;
        for (SubjectKind s : subjects) valid.emplace_back(to_string(s));
        error(key.at, "condition '" + key.value + "' does not apply to subject '" + std::string(to_string(subject)) +
                          "' (it applies to: " + join(valid) + ")");
      }
    }
  }

  void conditions(Rule& rule) {
    const MatchSpec& m = m_spec.match;
    Conditions& c = rule.conditions;
    for (const KeywordSpec& kw : m.keyword) {
      KeywordCondition condition{kw.keyword.value, {}, false};
      for (const Text& v : kw.values) condition.any_value = condition.any_value || v.value == "*";
      condition.values = literals(kw.values);
      c.keywords.push_back(std::move(condition));
    }
    if (m.missing_keyword) {
      for (const Text& k : *m.missing_keyword) c.missing_keywords.push_back(k.value);
    }
    for (const PositionalSpec& p : m.positional) c.positional.push_back({p.index.value, literals(p.values)});
    if (m.min_args) c.min_args = m.min_args->value;
    if (m.max_args) c.max_args = m.max_args->value;
    if (m.min_args && m.max_args && m.min_args->value > m.max_args->value) {
      error(m.max_args->at, "max_args is smaller than min_args");
    }
    if (m.receiver) c.receiver = literals(*m.receiver);
    if (m.not_receiver) c.not_receiver = literals(*m.not_receiver);
    // A config file's scalars are YAML text (`true`, `16-mixed`), not Python literals.
    if (m.value) c.value = rule.subject == SubjectKind::setting ? plain(*m.value) : literals(*m.value);
    if (m.value_calls_gpu_only) c.value_calls_gpu_only = m.value_calls_gpu_only->value;
    if (m.any_argument) c.any_argument = literals(*m.any_argument);
    if (m.not_argument) c.not_argument = literals(*m.not_argument);
    if (m.exclude) c.exclude = literals(*m.exclude);
    if (m.section) c.section = literals(*m.section);
    if (m.not_section) c.not_section = literals(*m.not_section);
    if (m.use) c.device_uses = static_cast<std::uint8_t>(word_bits(*m.use, device_use_vocabulary(), "device use"));
    if (m.origin) c.origins = static_cast<std::uint8_t>(word_bits(*m.origin, origin_vocabulary(), "import origin"));
    if (m.dynamic) c.dynamic = m.dynamic->value;
    if (m.outside_package) c.outside_package = m.outside_package->value;
    if (m.item_argument) c.item_argument = m.item_argument->value;
    if (m.fixed_buffer_decode) c.fixed_buffer_decode = m.fixed_buffer_decode->value;
    if (m.returned) c.returned = m.returned->value;
    if (m.logged) c.logged = m.logged->value;
    if (m.not_chained_into) c.not_chained_into = literals(*m.not_chained_into);
    if (m.checked_only) c.checked_only = m.checked_only->value;
    c.op_statuses = op_bits(m.status, "op status", parse_op_status, k_all_op_statuses);
    c.op_effects = op_bits(m.effect, "op effect", parse_op_effect, k_all_op_effects);
    c.op_kinds = op_bits(m.op_kind, "op kind", parse_op_kind, k_all_op_kinds);
  }

  Predicates predicates(const PredicatesSpec& spec) {
    Predicates p;
    if (spec.region) p.regions = decltype(p.regions)(word_bits(*spec.region, region_vocabulary(), "region"));
    if (spec.guard) p.guards = word_bits(*spec.guard, guard_vocabulary(), "guard");
    if (spec.in_loop) p.in_loop = spec.in_loop->value;
    if (spec.in_training_loop) p.in_training_loop = spec.in_training_loop->value;
    if (spec.runs_once) p.runs_once = spec.runs_once->value;
    if (spec.in_error_region) p.in_error_region = spec.in_error_region->value;
    if (spec.in_decorator) p.in_decorator = spec.in_decorator->value;
    if (spec.in_assert) p.in_assert = spec.in_assert->value;
    if (spec.in_test) p.in_test = spec.in_test->value;
    if (spec.neuron_stack) p.neuron_stack = spec.neuron_stack->value;
    if (spec.repo_loads_compiled_code) p.repo_loads_compiled_code = spec.repo_loads_compiled_code->value;
    if (spec.function) {
      for (const Text& glob : *spec.function) p.functions.push_back(glob.value);
    }
    if (spec.path) {
      for (const Text& glob : *spec.path) p.paths.push_back(glob.value);
    }
    return p;
  }

  std::optional<Rule> run(const std::filesystem::path& file) {
    Rule rule;
    rule.id = m_spec.id.value;
    rule.title = m_spec.title.value;
    auto category = parse_enum<Category>(m_spec.category, "category", parse_category, names_of(k_all_categories));
    auto severity = parse_enum<Severity>(m_spec.severity, "severity", parse_severity, names_of(k_all_severities));
    auto confidence =
        parse_enum<Confidence>(m_spec.confidence, "confidence", parse_confidence, {"high", "medium", "low"});
    if (category) {
      rule.category = *category;
      check_id(rule, file);
    }
    if (severity) rule.severity = *severity;
    if (confidence) rule.confidence = *confidence;
    profiles(rule);
    check_placeholders(m_spec.message);
    rule.message = m_spec.message.value;
    rule.why = m_spec.why.value;
    rule.fix = m_spec.fix.value;
    rule.example = m_spec.example ? m_spec.example->value : std::string();
    rule.catch_all = m_spec.catch_all && m_spec.catch_all->value;
    rule.wrappers = m_spec.wrappers && m_spec.wrappers->value;
    for (const Text& source : m_spec.sources) rule.sources.push_back(source.value);
    rule.weighed_by_use = m_spec.weighed_by_use && m_spec.weighed_by_use->value;
    rule.extension_modules = m_spec.extension_modules && m_spec.extension_modules->value;
    if (m_spec.library) {
      for (const Text& library : *m_spec.library) rule.library.add(library.value);
    }
    subject(rule);
    check_applicability(rule.subject);
    if (rule.weighed_by_use && rule.subject != SubjectKind::dependency && rule.subject != SubjectKind::import &&
        rule.subject != SubjectKind::setting)
      error(m_spec.weighed_by_use->at, "'weighed_by_use' applies to `dependency`, `import` and `setting` rules only");
    if (rule.extension_modules && rule.subject != SubjectKind::import)
      error(m_spec.extension_modules->at, "'extension_modules' applies to `import` rules only");
    if (!rule.library.empty() && rule.subject == SubjectKind::dependency)
      error(m_spec.library->front().at, "'library' names the packages a code finding uses: not for `dependency` rules");
    conditions(rule);
    if (m_spec.where) rule.where = predicates(*m_spec.where);
    if (m_spec.unless) rule.unless = predicates(*m_spec.unless);
    rule.source_path = file;
    rule.id_line = m_spec.id.at.line;
    rule.id_column = m_spec.id.at.column;
    if (m_failed) return std::nullopt;
    return rule;
  }

 private:
  const RuleSpec& m_spec;
  std::vector<Problem>& m_problems;
  bool m_failed = false;
};

}  // namespace

std::optional<Rule> compile_rule(const RuleSpec& spec, const std::filesystem::path& file,
                                 std::vector<Problem>& problems) {
  return Compiler(spec, problems).run(file);
}

}  // namespace tr2audit::rules
