// Reads a rule document into a RuleSpec: allow-listed keys per object, types, required keys.
#include <yaml-cpp/yaml.h>

#include <set>
#include <string_view>

#include "rule_spec.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::rules {

namespace {

const std::vector<std::string> k_rule_keys{"id",
                                           "title",
                                           "category",
                                           "severity",
                                           "confidence",
                                           "profiles",
                                           "severity_by_profile",
                                           "severity_by_region",
                                           "message",
                                           "why",
                                           "fix",
                                           "example",
                                           "sources",
                                           "library",
                                           "weighed_by_use",
                                           "match",
                                           "where",
                                           "unless",
                                           "catch_all",
                                           "wrappers",
                                           "extension_modules"};
const std::vector<std::string> k_subject_keys{"call",      "call_text", "method", "import",     "decorator",
                                              "assign",    "device",    "file",   "dependency", "pattern",
                                              "reference", "op",        "setting"};
const std::vector<std::string> k_condition_keys{"keyword",
                                                "missing_keyword",
                                                "positional",
                                                "min_args",
                                                "max_args",
                                                "any_argument",
                                                "not_argument",
                                                "exclude",
                                                "receiver",
                                                "not_receiver",
                                                "value",
                                                "use",
                                                "origin",
                                                "dynamic",
                                                "outside_package",
                                                "section",
                                                "not_section",
                                                "status",
                                                "effect",
                                                "op_kind",
                                                "value_calls_gpu_only",
                                                "item_argument",
                                                "fixed_buffer_decode",
                                                "returned",
                                                "logged",
                                                "not_chained_into",
                                                "checked_only"};
const std::vector<std::string> k_predicate_keys{
    "region", "in_loop",      "in_training_loop",         "guard",     "in_error_region", "in_test",  "function",
    "path",   "neuron_stack", "repo_loads_compiled_code", "runs_once", "in_decorator",    "in_assert"};

std::vector<std::string> concat(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

Pos pos_of(const YAML::Node& node, Pos fallback) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) return fallback;
  return Pos{static_cast<std::uint32_t>(mark.line + 1), static_cast<std::uint32_t>(mark.column + 1)};
}

bool is_true_word(std::string_view s) {
  return s == "true" || s == "True" || s == "TRUE";
}
bool is_false_word(std::string_view s) {
  return s == "false" || s == "False" || s == "FALSE";
}

/// One key of a map with the positions of key and value.
struct Entry {
  std::string key;
  Pos key_at;
  YAML::Node value;
  Pos value_at;
};

class SpecReader {
 public:
  SpecReader(const std::string& path, std::vector<Problem>& problems) : m_path(path), m_problems(problems) {}

  void error(Pos at, std::string message) {
    m_problems.push_back(rule_problem(m_path, at, std::move(message)));
    m_failed = true;
  }
  bool failed() const { return m_failed; }

  /// The entries of a map, each checked against `allowed`; unknown and duplicate keys are errors.
  std::vector<Entry> entries(const YAML::Node& map, const std::vector<std::string>& allowed, std::string_view where) {
    std::vector<Entry> out;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      Entry entry{it->first.IsScalar() ? it->first.Scalar() : std::string(), pos_of(it->first, {}), it->second, {}};
      entry.value_at = pos_of(it->second, entry.key_at);
      if (!it->first.IsScalar()) {
        error(entry.key_at, "a key in " + std::string(where) + " must be a plain word");
        continue;
      }
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), entry.key) == allowed.end()) {
        unknown_key(entry, allowed, where);
        continue;
      }
      if (!seen.insert(entry.key).second) {
        error(entry.key_at, "duplicate key '" + entry.key + "' in " + std::string(where));
        continue;
      }
      out.push_back(std::move(entry));
    }
    return out;
  }

  void unknown_key(const Entry& entry, const std::vector<std::string>& allowed, std::string_view where) {
    std::string message = "unknown key '" + entry.key + "' in " + std::string(where);
    const std::string guess = suggest(entry.key, allowed);
    if (!guess.empty()) message += "; did you mean '" + guess + "'?";
    m_suggested.insert(guess);
    error(entry.key_at, std::move(message));
  }

  /// True when an unknown key was already reported with this key as its suggestion.
  bool suggested(const std::string& key) const { return m_suggested.count(key) != 0; }

  std::optional<Text> text(const Entry& e) {
    if (!e.value.IsScalar() || e.value.Scalar().empty()) {
      error(e.value_at, "'" + e.key + "' must be a non-empty string");
      return std::nullopt;
    }
    return Text{e.value.Scalar(), e.value_at};
  }

  std::optional<TextList> text_list(const YAML::Node& node, Pos at, const std::string& key) {
    if (!node.IsSequence() || node.size() == 0) {
      error(at, "'" + key + "' must be a non-empty list of strings");
      return std::nullopt;
    }
    TextList out;
    for (const YAML::Node& item : node) {
      if (!item.IsScalar() || item.Scalar().empty()) {
        error(pos_of(item, at), "'" + key + "' must be a non-empty list of strings");
        return std::nullopt;
      }
      out.push_back(Text{item.Scalar(), pos_of(item, at)});
    }
    return out;
  }
  std::optional<TextList> text_list(const Entry& e) { return text_list(e.value, e.value_at, e.key); }

  std::optional<Flag> flag(const Entry& e) {
    if (e.value.IsScalar() && is_true_word(e.value.Scalar())) return Flag{true, e.value_at};
    if (e.value.IsScalar() && is_false_word(e.value.Scalar())) return Flag{false, e.value_at};
    error(e.value_at, "'" + e.key + "' must be true or false");
    return std::nullopt;
  }

  std::optional<Count> count(const YAML::Node& node, Pos at, const std::string& key) {
    const std::string digits = node.IsScalar() ? node.Scalar() : std::string();
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) {
      error(at, "'" + key + "' must be a non-negative integer");
      return std::nullopt;
    }
    return Count{static_cast<std::uint32_t>(std::stoul(digits)), at};
  }

  bool is_map(const Entry& e) {
    if (e.value.IsMap()) return true;
    error(e.value_at, "'" + e.key + "' must be a map");
    return false;
  }

 private:
  const std::string& m_path;
  std::vector<Problem>& m_problems;
  bool m_failed = false;
  std::set<std::string> m_suggested;
};

void read_keyword(SpecReader& r, const Entry& e, MatchSpec& match) {
  if (!r.is_map(e)) return;
  for (const Entry& kw : r.entries(e.value, {}, "keyword")) {
    if (auto values = r.text_list(kw)) match.keyword.push_back({Text{kw.key, kw.key_at}, std::move(*values)});
  }
}

void read_positional(SpecReader& r, const Entry& e, MatchSpec& match) {
  if (!r.is_map(e)) return;
  for (const Entry& item : r.entries(e.value, {}, "positional")) {
    auto index = r.count(YAML::Node(item.key), item.key_at, "positional index");
    auto values = r.text_list(item);
    if (index && values) match.positional.push_back({*index, std::move(*values)});
  }
}

void read_condition(SpecReader& r, const Entry& e, MatchSpec& m) {
  m.condition_keys.push_back(Text{e.key, e.key_at});
  if (e.key == "keyword") return read_keyword(r, e, m);
  if (e.key == "positional") return read_positional(r, e, m);
  if (e.key == "min_args") m.min_args = r.count(e.value, e.value_at, e.key);
  if (e.key == "max_args") m.max_args = r.count(e.value, e.value_at, e.key);
  if (e.key == "dynamic") m.dynamic = r.flag(e);
  if (e.key == "value_calls_gpu_only") m.value_calls_gpu_only = r.flag(e);
  if (e.key == "outside_package") m.outside_package = r.flag(e);
  if (e.key == "item_argument") m.item_argument = r.flag(e);
  if (e.key == "fixed_buffer_decode") m.fixed_buffer_decode = r.flag(e);
  if (e.key == "returned") m.returned = r.flag(e);
  if (e.key == "logged") m.logged = r.flag(e);
  if (e.key == "checked_only") m.checked_only = r.flag(e);
  std::optional<TextList>* list = e.key == "missing_keyword"    ? &m.missing_keyword
                                  : e.key == "receiver"         ? &m.receiver
                                  : e.key == "not_receiver"     ? &m.not_receiver
                                  : e.key == "not_chained_into" ? &m.not_chained_into
                                  : e.key == "value"            ? &m.value
                                  : e.key == "use"              ? &m.use
                                  : e.key == "origin"           ? &m.origin
                                  : e.key == "any_argument"     ? &m.any_argument
                                  : e.key == "not_argument"     ? &m.not_argument
                                  : e.key == "exclude"          ? &m.exclude
                                  : e.key == "section"          ? &m.section
                                  : e.key == "not_section"      ? &m.not_section
                                  : e.key == "status"           ? &m.status
                                  : e.key == "effect"           ? &m.effect
                                  : e.key == "op_kind"          ? &m.op_kind
                                                                : nullptr;
  if (list != nullptr) *list = r.text_list(e);
}

void read_match(SpecReader& r, const Entry& e, MatchSpec& m) {
  m.at = e.value_at;
  if (!r.is_map(e)) return;
  for (const Entry& entry : r.entries(e.value, concat(k_subject_keys, k_condition_keys), "match")) {
    const bool is_subject = std::find(k_subject_keys.begin(), k_subject_keys.end(), entry.key) != k_subject_keys.end();
    if (!is_subject) {
      read_condition(r, entry, m);
      continue;
    }
    if (!m.subject.value.empty()) {
      r.error(entry.key_at, "match has two subject keys, '" + m.subject.value + "' and '" + entry.key +
                                "': a rule selects exactly one kind of fact");
      continue;
    }
    m.subject = Text{entry.key, entry.key_at};
    if (entry.key == "file") {
      if (auto kind = r.text(entry)) m.names = {*kind};
    } else if (auto names = r.text_list(entry)) {
      m.names = std::move(*names);
    }
  }
  if (m.subject.value.empty() && e.value.IsMap()) {
    r.error(e.value_at,
            "match needs one subject key: call, call_text, method, import, decorator, assign, device, "
            "file, dependency, pattern, reference, op or setting");
  }
}

PredicatesSpec read_predicates(SpecReader& r, const Entry& e) {
  PredicatesSpec p;
  p.at = e.value_at;
  if (!r.is_map(e)) return p;
  for (const Entry& entry : r.entries(e.value, k_predicate_keys, e.key)) {
    if (entry.key == "region") p.region = r.text_list(entry);
    if (entry.key == "guard") p.guard = r.text_list(entry);
    if (entry.key == "function") p.function = r.text_list(entry);
    if (entry.key == "path") p.path = r.text_list(entry);
    if (entry.key == "in_loop") p.in_loop = r.flag(entry);
    if (entry.key == "in_training_loop") p.in_training_loop = r.flag(entry);
    if (entry.key == "runs_once") p.runs_once = r.flag(entry);
    if (entry.key == "in_error_region") p.in_error_region = r.flag(entry);
    if (entry.key == "in_decorator") p.in_decorator = r.flag(entry);
    if (entry.key == "in_assert") p.in_assert = r.flag(entry);
    if (entry.key == "in_test") p.in_test = r.flag(entry);
    if (entry.key == "neuron_stack") p.neuron_stack = r.flag(entry);
    if (entry.key == "repo_loads_compiled_code") p.repo_loads_compiled_code = r.flag(entry);
  }
  return p;
}

void read_severity_map(SpecReader& r, const Entry& e, std::vector<SeverityOverride>& out) {
  if (!r.is_map(e)) return;
  for (const Entry& entry : r.entries(e.value, {}, e.key)) {
    if (auto severity = r.text(entry)) out.push_back({Text{entry.key, entry.key_at}, *severity});
  }
}

void read_top_entry(SpecReader& r, const Entry& e, RuleSpec& spec) {
  Text* text = e.key == "id"           ? &spec.id
               : e.key == "title"      ? &spec.title
               : e.key == "category"   ? &spec.category
               : e.key == "severity"   ? &spec.severity
               : e.key == "confidence" ? &spec.confidence
               : e.key == "message"    ? &spec.message
               : e.key == "why"        ? &spec.why
               : e.key == "fix"        ? &spec.fix
                                       : nullptr;
  if (text != nullptr) {
    if (auto value = r.text(e)) *text = *value;
  } else if (e.key == "catch_all") {
    spec.catch_all = r.flag(e);
  } else if (e.key == "wrappers") {
    spec.wrappers = r.flag(e);
  } else if (e.key == "example") {
    spec.example = r.text(e);
  } else if (e.key == "profiles") {
    spec.profiles = r.text_list(e);
  } else if (e.key == "sources") {
    if (auto sources = r.text_list(e)) spec.sources = std::move(*sources);
  } else if (e.key == "library") {
    spec.library = r.text_list(e);
  } else if (e.key == "weighed_by_use") {
    spec.weighed_by_use = r.flag(e);
  } else if (e.key == "extension_modules") {
    spec.extension_modules = r.flag(e);
  } else if (e.key == "severity_by_profile") {
    read_severity_map(r, e, spec.severity_by_profile);
  } else if (e.key == "severity_by_region") {
    read_severity_map(r, e, spec.severity_by_region);
  } else if (e.key == "match") {
    read_match(r, e, spec.match);
  } else if (e.key == "where") {
    spec.where = read_predicates(r, e);
  } else if (e.key == "unless") {
    spec.unless = read_predicates(r, e);
  }
}

}  // namespace

Problem rule_problem(const std::string& path, Pos at, std::string message) {
  return Problem{ProblemKind::invalid_rule, path, at.line, at.column, std::move(message)};
}

std::optional<RuleSpec> read_rule_spec(const YAML::Node& root, const std::string& path,
                                       std::vector<Problem>& problems) {
  SpecReader reader(path, problems);
  RuleSpec spec;
  spec.path = path;
  spec.at = pos_of(root, Pos{1, 1});
  if (!root.IsMap()) {
    reader.error(spec.at, "a rule file must hold one map of rule keys (id, title, category, ...)");
    return std::nullopt;
  }
  std::set<std::string> present;
  for (const Entry& entry : reader.entries(root, k_rule_keys, "rule")) {
    present.insert(entry.key);
    read_top_entry(reader, entry, spec);
  }
  for (const char* required :
       {"id", "title", "category", "severity", "confidence", "message", "why", "fix", "sources", "match"}) {
    if (present.count(required) == 0 && !reader.suggested(required))
      reader.error(spec.at, std::string("missing required key '") + required + "'");
  }
  if (reader.failed()) return std::nullopt;
  return spec;
}

}  // namespace tr2audit::rules
