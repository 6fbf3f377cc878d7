// rules/op_table_load: strict loader of rules/neuron-ops.yaml. Every error becomes a Problem
// (invalid_op_table) with file:line:column; yaml-cpp exceptions are caught here and keep their mark.
// Any problem rejects the whole table, so a half-valid table never scores a scan.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tr2audit/core/file.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/rules/yaml_load.hpp"

namespace tr2audit::rules {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_inferred_prefix = "inferred:";
const std::vector<std::string> k_header_keys{"version", "neuron_sdk", "checked", "sources_legend", "ops"};
const std::vector<std::string> k_row_keys{"name",    "kind",    "native", "xla",     "alternative",
                                          "aliases", "modules", "source", "inferred"};
const std::vector<std::string> k_profile_keys{"status", "effect", "note"};
const std::vector<std::string> k_profile_required{"status", "note"};

struct Pos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

Pos mark_pos(const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return {};
  return Pos{static_cast<std::uint32_t>(mark.line + 1), static_cast<std::uint32_t>(mark.column + 1)};
}

std::string in_quotes(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

bool is_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

/// Reads one table document, appending a Problem for every error it finds.
class TableReader {
 public:
  TableReader(std::string shown, std::vector<Problem>& problems) : m_shown(std::move(shown)), m_problems(problems) {}

  void error(const YAML::Node& node, std::string message) { error_at(mark_pos(node.Mark()), std::move(message)); }
  void error_at(Pos pos, std::string message) {
    m_problems.push_back(Problem{ProblemKind::invalid_op_table, m_shown, pos.line, pos.column, std::move(message)});
  }

  /// Reports unknown and duplicate keys (with a suggestion) and missing required ones; false on any.
  bool check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::vector<std::string>& required, std::string_view what) {
    bool ok = true;
    std::map<std::string, std::uint32_t> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        const std::string hint = suggest(key, allowed);
        error(it->first, "unknown key " + in_quotes(key) + " in " + std::string(what) +
                             (hint.empty() ? " (valid keys: " + joined(allowed) + ")"
                                           : " (did you mean " + in_quotes(hint) + "?)"));
        ok = false;
      } else if (const auto [prev, inserted] = seen.emplace(key, mark_pos(it->first.Mark()).line); !inserted) {
        error(it->first, "duplicate key " + in_quotes(key) + " in " + std::string(what) + " (first at line " +
                             std::to_string(prev->second) + ")");
        ok = false;
      }
    }
    for (const auto& key : required) {
      if (!seen.contains(key) && std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
        error(map, std::string(what) + " is missing the required key " + in_quotes(key));
        ok = false;
      }
    }
    return ok;
  }

  /// A string value; reports a wrong type, or an empty string when non_empty.
  std::optional<std::string> string_value(const YAML::Node& node, std::string_view what, bool non_empty) {
    if (!node.IsScalar()) {
      error(node, std::string(what) + " must be a string");
      return std::nullopt;
    }
    std::string value = node.Scalar();
    if (non_empty && trim(value).empty()) {
      error(node, std::string(what) + " must not be empty");
      return std::nullopt;
    }
    return value;
  }

  std::optional<std::vector<std::string>> string_list(const YAML::Node& node, std::string_view what) {
    if (!node.IsSequence()) {
      error(node, std::string(what) + " must be a list of names");
      return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (const YAML::Node& item : node) {
      auto value = string_value(item, std::string(what) + " entry", true);
      if (value) out.push_back(std::move(*value));
      ok = ok && value.has_value();
    }
    return ok ? std::optional(std::move(out)) : std::nullopt;
  }

  std::optional<OpTableInfo> read_header(const YAML::Node& root) {
    if (!root.IsMap()) {
      error(root, "the op table must be a mapping with keys " + joined(k_header_keys));
      return std::nullopt;
    }
    bool ok = check_keys(root, k_header_keys, {"version", "neuron_sdk", "checked", "ops"}, "the op table");
    OpTableInfo info;
    const auto read = [&](const char* key, std::string& out) {
      if (!root[key]) return;
      auto value = string_value(root[key], in_quotes(key), true);
      if (value) out = std::move(*value);
      ok = ok && value.has_value();
    };
    read("version", info.version);
    read("neuron_sdk", info.neuron_sdk);
    read("checked", info.checked);
    if (!info.checked.empty() && !is_date(info.checked)) {
      error(root["checked"], "'checked' must be a date YYYY-MM-DD, got " + in_quotes(info.checked));
      ok = false;
    }
    if (const YAML::Node legend = root["sources_legend"]; legend && !legend.IsMap()) {
      error(legend, "'sources_legend' must be a mapping of key -> source");
      ok = false;
    }
    if (const YAML::Node ops = root["ops"]; ops && !ops.IsSequence()) {
      error(ops, "'ops' must be a list of rows");
      ok = false;
    }
    return ok ? std::optional(std::move(info)) : std::nullopt;
  }

  std::optional<OpProfileStatus> read_profile(const YAML::Node& node, const std::string& what) {
    if (!node.IsMap()) {
      error(node, what + " must be a mapping {status: ..., note: ...}");
      return std::nullopt;
    }
    if (!check_keys(node, k_profile_keys, k_profile_required, what)) return std::nullopt;
    auto status_text = string_value(node["status"], "status in " + what, true);
    auto note = string_value(node["note"], "note in " + what, true);
    if (!status_text || !note) return std::nullopt;
    const std::optional<OpStatus> status = parse_op_status(*status_text);
    if (!status) {
      std::vector<std::string> valid;
      for (const OpStatus s : k_all_op_statuses) valid.emplace_back(to_string(s));
      const std::string hint = suggest(*status_text, valid);
      error(node["status"], "unknown status " + in_quotes(*status_text) + " in " + what + " (valid: " + joined(valid) +
                                (hint.empty() ? ")" : "; did you mean " + in_quotes(hint) + "?)"));
      return std::nullopt;
    }
    OpProfileStatus out{*status, std::move(*note), std::nullopt};
    if (const YAML::Node effect = node["effect"]) {
      if (!read_effect(effect, *status, what, out)) return std::nullopt;
    }
    return out;
  }

  bool read_effect(const YAML::Node& node, OpStatus status, const std::string& what, OpProfileStatus& out) {
    const auto text = string_value(node, "effect in " + what, true);
    if (!text) return false;
    out.effect = parse_op_effect(*text);
    if (!out.effect) {
      std::vector<std::string> valid;
      for (const OpEffect e : k_all_op_effects) valid.emplace_back(to_string(e));
      error(node, "unknown effect " + in_quotes(*text) + " in " + what + " (valid: " + joined(valid) + ")");
      return false;
    }
    if (status == OpStatus::supported) {
      error(node, "effect " + in_quotes(*text) + " in " + what + " needs a status other than 'supported'");
      return false;
    }
    return true;
  }

  bool read_kind(const YAML::Node& node, OpRow& row) {
    auto text = string_value(node, "'kind'", true);
    if (!text) return false;
    const std::optional<OpKind> kind = parse_op_kind(*text);
    if (!kind) {
      std::vector<std::string> valid;
      for (const OpKind k : k_all_op_kinds) valid.emplace_back(to_string(k));
      error(node, "unknown kind " + in_quotes(*text) + " (valid: " + joined(valid) + ")");
      return false;
    }
    row.kind = *kind;
    return true;
  }

  bool read_inferred(const YAML::Node& node, OpRow& row) {
    const std::string text = node.IsScalar() ? node.Scalar() : std::string();
    if (text != "true" && text != "false") {
      error(node, "'inferred' must be true or false");
      return false;
    }
    row.inferred = text == "true";
    return true;
  }

  bool read_optional(const YAML::Node& node, OpRow& row) {
    bool ok = true;
    if (const YAML::Node alt = node["alternative"]; alt && !alt.IsNull()) {
      auto value = string_value(alt, "'alternative'", false);
      if (value) row.alternative = std::move(*value);
      ok = ok && value.has_value();
    }
    for (auto [key, target] : {std::pair{"aliases", &row.aliases}, std::pair{"modules", &row.modules}}) {
      if (const YAML::Node list = node[key]; list && !list.IsNull()) {
        auto value = string_list(list, in_quotes(key));
        if (value) *target = std::move(*value);
        ok = ok && value.has_value();
      }
    }
    if (const YAML::Node inferred = node["inferred"]; inferred) ok = read_inferred(inferred, row) && ok;
    return ok;
  }

  /// `inferred: true` exactly when some note rests on reasoning ("inferred:" prefix, "[UNSOURCED]").
  void check_provenance(const YAML::Node& node, const OpRow& row) {
    const auto reasoned = [](const OpProfileStatus& p) {
      return starts_with(p.note, k_inferred_prefix) || p.note.find("[UNSOURCED]") != std::string::npos;
    };
    const bool any = reasoned(row.native) || reasoned(row.xla);
    const bool prefixed =
        starts_with(row.native.note, k_inferred_prefix) || starts_with(row.xla.note, k_inferred_prefix);
    if (any && !row.inferred) {
      error(node, "row " + in_quotes(row.name) +
                      " has a note resting on reasoning ('inferred:' or '[UNSOURCED]') but not 'inferred: true'");
    } else if (row.inferred && !prefixed) {
      error(node, "row " + in_quotes(row.name) + " is 'inferred: true' but neither note starts with 'inferred:'");
    }
  }

  std::optional<OpRow> read_row(const YAML::Node& node, std::size_t index) {
    const std::string what = "op row " + std::to_string(index + 1);
    if (!node.IsMap()) {
      error(node, what + " must be a mapping");
      return std::nullopt;
    }
    OpRow row;
    row.line = mark_pos(node.Mark()).line;
    if (const YAML::Node name = node["name"]; name && name.IsScalar()) row.name = name.Scalar();
    const std::string label = trim(row.name).empty() ? what : "row " + in_quotes(row.name);
    bool ok = check_keys(node, k_row_keys, {"name", "kind", "native", "xla", "source"}, label);
    if (node["name"]) ok = string_value(node["name"], "'name' of " + what, true).has_value() && ok;
    if (node["kind"]) ok = read_kind(node["kind"], row) && ok;
    for (auto [key, target] : {std::pair{"native", &row.native}, std::pair{"xla", &row.xla}}) {
      if (!node[key]) continue;
      auto profile = read_profile(node[key], "'" + std::string(key) + "' of " + label);
      if (profile) *target = std::move(*profile);
      ok = ok && profile.has_value();
    }
    if (node["source"]) {
      auto source = string_value(node["source"], "'source' of " + label, true);
      if (source) row.source = std::move(*source);
      ok = ok && source.has_value();
    }
    ok = read_optional(node, row) && ok;
    if (!ok) return std::nullopt;
    const std::size_t before = m_problems.size();
    check_provenance(node, row);
    if (m_problems.size() != before) return std::nullopt;
    return row;
  }

  /// Reports every name, alias or module constructor already used by an earlier row (or this one).
  bool check_unique(const YAML::Node& node, const OpRow& row) {
    struct Use {
      std::string_view role;
      const std::vector<std::string>* names;
    };
    const std::vector<std::string> own{row.name};
    bool ok = true;
    for (const Use use : {Use{"name", &own}, Use{"alias", &row.aliases}, Use{"module", &row.modules}}) {
      for (const auto& name : *use.names) {
        const auto [it, inserted] = m_defined.emplace(name, Definition{row.line, std::string(use.role), row.name});
        if (inserted) continue;
        const Definition& first = it->second;
        error(node, "duplicate " + std::string(use.role) + " " + in_quotes(name) + " of row " + in_quotes(row.name) +
                        " (line " + std::to_string(row.line) + "): already the " + first.role + " of row " +
                        in_quotes(first.row) + " at line " + std::to_string(first.line));
        ok = false;
      }
    }
    return ok;
  }

  std::vector<OpRow> read_rows(const YAML::Node& ops) {
    std::vector<OpRow> rows;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const YAML::Node node = ops[i];
      std::optional<OpRow> row = read_row(node, i);
      if (row && check_unique(node, *row)) rows.push_back(std::move(*row));
    }
    if (ops.size() == 0) error(ops, "'ops' holds no rows");
    return rows;
  }

 private:
  struct Definition {
    std::uint32_t line = 0;
    std::string role;
    std::string row;
  };
  std::string m_shown;
  std::vector<Problem>& m_problems;
  std::map<std::string, Definition, std::less<>> m_defined;
};

}  // namespace

LoadedOpTable OpTable::load(const fs::path& file) {
  const std::optional<std::string> text = read_file(file);
  if (!text) {
    LoadedOpTable out;
    out.problems.push_back(
        Problem{ProblemKind::invalid_op_table, file.generic_string(), 0, 0, "cannot read the op table"});
    return out;
  }
  return load_text(*text, file);
}

LoadedOpTable OpTable::load_text(std::string_view yaml_text, const fs::path& shown_path) {
  LoadedOpTable out;
  const std::string shown = shown_path.generic_string();
  TableReader reader(shown, out.problems);
  const YamlDocument document = load_yaml_document(yaml_text);
  if (!document.ok) {
    out.problems.push_back(
        Problem{ProblemKind::invalid_op_table, shown, document.line, document.column, document.error});
    return out;
  }
  try {
    const YAML::Node root = document.root;
    if (root.IsNull()) {
      reader.error_at({}, "empty op table");
      return out;
    }
    std::optional<OpTableInfo> info = reader.read_header(root);
    std::vector<OpRow> rows =
        root["ops"] && root["ops"].IsSequence() ? reader.read_rows(root["ops"]) : std::vector<OpRow>{};
    if (info && out.problems.empty()) out.table = OpTable(std::move(*info), std::move(rows));
  } catch (const YAML::Exception& e) {
    reader.error_at(mark_pos(e.mark), "invalid YAML: " + e.msg);
  }
  if (!out.problems.empty()) out.table.reset();
  std::stable_sort(out.problems.begin(), out.problems.end(), [](const Problem& a, const Problem& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  return out;
}

}  // namespace tr2audit::rules
