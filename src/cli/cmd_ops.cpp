// cli/cmd_ops: `tr2audit ops lookup NAME` and `tr2audit ops list` over the Neuron operator-support
// table (rules/neuron-ops.yaml by default, or --table FILE).
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/resources.hpp"
#include "tr2audit/core/problem.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/op_table.hpp"

namespace tr2audit::cli {
namespace {

using rules::OpRow;
using rules::OpTable;

struct OpsOptions {
  std::string name;
  std::string table;
  std::string format = "text";
  std::string status;
  std::string target = "native";
  std::string kind;
};

constexpr std::size_t k_max_suggestions = 3;

/// Loads --table or the built-in table; prints problems and returns nullopt when it is unusable.
std::optional<OpTable> load_table(const std::string& table_option) {
  std::filesystem::path path = table_option;
  if (path.empty()) {
    const std::filesystem::path dir = builtin_rules_dir();
    if (dir.empty()) {
      std::cerr << "tr2audit: cannot find the built-in rules folder (set TR2AUDIT_RULES_DIR or pass --table FILE)\n";
      return std::nullopt;
    }
    path = dir / "neuron-ops.yaml";
  }
  rules::LoadedOpTable loaded = OpTable::load(path);
  for (const Problem& problem : loaded.problems) std::cerr << format_problem(problem) << '\n';
  if (!loaded.table) std::cerr << "tr2audit: invalid op table " << path.generic_string() << '\n';
  return std::move(loaded.table);
}

std::string_view last_segment(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

/// Up to k_max_suggestions names close to the query: same last segment first, then by edit distance
/// of the whole name or of the last segment.
std::vector<std::string> suggestions(const OpTable& table, std::string_view query) {
  const std::string_view last = last_segment(query);
  const std::size_t limit = std::max<std::size_t>(2, last.size() / 3) + 1;
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (std::string& name : table.all_names()) {
    const std::string_view name_last = last_segment(name);
    const std::size_t distance =
        name_last == last ? 0 : std::min(edit_distance(query, name), edit_distance(last, name_last)) + 1;
    if (distance <= limit) ranked.emplace_back(distance, std::move(name));
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (auto& [distance, name] : ranked) {
    if (out.size() == k_max_suggestions) break;
    out.push_back(std::move(name));
  }
  return out;
}

nlohmann::json profile_json(const rules::OpProfileStatus& profile) {
  nlohmann::json out{{"status", std::string(rules::to_string(profile.status))}, {"note", profile.note}};
  if (profile.effect) out["effect"] = std::string(rules::to_string(*profile.effect));
  return out;
}

/// "caveat [cpu-fallback]" or "supported".
std::string status_text(const rules::OpProfileStatus& profile) {
  std::string out(rules::to_string(profile.status));
  return profile.effect ? out + " [" + std::string(rules::to_string(*profile.effect)) + "]" : out;
}

nlohmann::json row_json(const OpRow& row) {
  nlohmann::json sources = nlohmann::json::array();
  for (const std::string_view source : row.sources()) sources.push_back(std::string(source));
  return {{"name", row.name},
          {"kind", std::string(rules::to_string(row.kind))},
          {"native", profile_json(row.native)},
          {"xla", profile_json(row.xla)},
          {"alternative", row.alternative},
          {"aliases", row.aliases},
          {"modules", row.modules},
          {"sources", sources},
          {"inferred", row.inferred},
          {"line", row.line}};
}

nlohmann::json info_json(const rules::OpTableInfo& info) {
  return {{"version", info.version}, {"neuron_sdk", info.neuron_sdk}, {"checked", info.checked}};
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

void print_row_text(const OpRow& row, const std::string& query, const rules::OpTableInfo& info) {
  std::cout << row.name << "  (" << rules::to_string(row.kind) << ")\n";
  if (query != row.name) std::cout << "  matched:     " << query << '\n';
  if (!row.aliases.empty()) std::cout << "  aliases:     " << list_text(row.aliases) << '\n';
  if (!row.modules.empty()) std::cout << "  modules:     " << list_text(row.modules) << '\n';
  std::cout << "  native:      " << status_text(row.native) << " - " << row.native.note << '\n';
  std::cout << "  xla:         " << status_text(row.xla) << " - " << row.xla.note << '\n';
  if (!row.alternative.empty()) std::cout << "  alternative: " << row.alternative << '\n';
  std::cout << "  inferred:    " << (row.inferred ? "yes (a status rests on reasoning, not a source statement)" : "no")
            << '\n';
  std::cout << "  sources:\n";
  for (const std::string_view source : row.sources()) std::cout << "    - " << source << '\n';
  std::cout << "  table:       version " << info.version << ", Neuron SDK " << info.neuron_sdk << ", checked "
            << info.checked << '\n';
}

int run_lookup(const OpsOptions& options) {
  const std::optional<OpTable> table = load_table(options.table);
  if (!table) return k_exit_usage;
  const std::string query = rules::expand_op_name(trim(options.name));
  const OpRow* row = table->find(query);
  if (row == nullptr) {
    std::cerr << "tr2audit: no row for '" << options.name << "' in the op table\n";
    const std::vector<std::string> close = suggestions(*table, query);
    if (!close.empty()) std::cerr << "did you mean: " << list_text(close) << "?\n";
    return k_exit_gate_failed;
  }
  if (options.format == "json") {
    nlohmann::json out = row_json(*row);
    out["query"] = query;
    out["table"] = info_json(table->info());
    std::cout << out.dump(2) << '\n';
  } else {
    print_row_text(*row, query, table->info());
  }
  return k_exit_ok;
}

bool row_selected(const OpRow& row, const OpsOptions& options, TargetProfile target) {
  if (!options.kind.empty() && rules::to_string(row.kind) != options.kind) return false;
  return options.status.empty() || rules::to_string(row.for_profile(target).status) == options.status;
}

void print_list_text(const std::vector<const OpRow*>& rows) {
  constexpr std::size_t k_name_cap = 64;
  std::size_t width = 4;
  for (const OpRow* row : rows) width = std::max(width, std::min(row->name.size(), k_name_cap));
  const auto pad = [](std::string_view text, std::size_t w) {
    std::string out(text.substr(0, w));
    out.resize(w, ' ');
    return out;
  };
  std::cout << pad("NAME", width) << "  " << pad("KIND", 8) << "  " << pad("NATIVE", 12) << "  " << pad("XLA", 12)
            << "  INFERRED\n";
  for (const OpRow* row : rows) {
    std::cout << pad(row->name, width) << "  " << pad(rules::to_string(row->kind), 8) << "  "
              << pad(rules::to_string(row->native.status), 12) << "  " << pad(rules::to_string(row->xla.status), 12)
              << "  " << (row->inferred ? "yes" : "no") << '\n';
  }
  std::cout << rows.size() << (rows.size() == 1 ? " row\n" : " rows\n");
}

int run_list(const OpsOptions& options) {
  const std::optional<OpTable> table = load_table(options.table);
  if (!table) return k_exit_usage;
  const TargetProfile target = parse_target_profile(options.target).value_or(TargetProfile::native);
  std::vector<const OpRow*> rows;
  for (const OpRow& row : table->rows()) {
    if (row_selected(row, options, target)) rows.push_back(&row);
  }
  if (options.format == "json") {
    nlohmann::json out = {{"table", info_json(table->info())}, {"rows", nlohmann::json::array()}};
    for (const OpRow* row : rows) out["rows"].push_back(row_json(*row));
    std::cout << out.dump(2) << '\n';
  } else {
    print_list_text(rows);
  }
  return k_exit_ok;
}

std::vector<std::string> words(auto values) {
  std::vector<std::string> out;
  for (const auto value : values) out.emplace_back(to_string(value));
  return out;
}

void add_common_options(CLI::App& command, OpsOptions& options) {
  command.add_option("--table", options.table, "Operator table to read (default: the built-in neuron-ops.yaml)");
  command.add_option("--format", options.format, "Output format")->check(CLI::IsMember({"text", "json"}));
}

}  // namespace

void register_ops(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<OpsOptions>();
  CLI::App* ops = app.add_subcommand("ops", "Look up the Neuron operator-support table");
  ops->require_subcommand(1);

  CLI::App* lookup = ops->add_subcommand("lookup", "Show one op, API or pattern under both target profiles");
  lookup
      ->add_option("NAME", options->name,
                   "Qualified name, alias or short form (F.grid_sample, nn.Conv3d, Tensor.nonzero)")
      ->required();
  add_common_options(*lookup, *options);
  lookup->callback([options, &exit_code] { exit_code = run_lookup(*options); });

  CLI::App* list = ops->add_subcommand("list", "List rows, optionally filtered by status, target profile and kind");
  list->add_option("--status", options->status, "Only rows with this status under --target")
      ->check(CLI::IsMember(words(rules::k_all_op_statuses)));
  list->add_option("--target", options->target, "Target profile that --status applies to (default: native)")
      ->check(CLI::IsMember(words(k_all_profiles)));
  list->add_option("--kind", options->kind, "Only rows of this kind")
      ->check(CLI::IsMember(words(rules::k_all_op_kinds)));
  add_common_options(*list, *options);
  list->callback([options, &exit_code] { exit_code = run_list(*options); });
}

}  // namespace tr2audit::cli
