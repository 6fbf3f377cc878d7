// pilot/settings (private): every named setting the repo gives a value to, in one table: argparse
// defaults, function parameter defaults, module/class constants, keyword arguments of calls
// (TrainingArguments(save_steps=200), tokenizer(max_length=...)) and keys of YAML/JSON config files.
// Code that only inference, export, tooling or tests reach is left out.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tr2audit/facts/facts.hpp"
#include "tr2audit/pilot/pilot.hpp"

namespace tr2audit::pilot::detail {

/// Where a setting comes from, in the order a run sees them win: a literal in the training call, then a
/// config file or launch script (they override code defaults), then argparse, parameter and other defaults.
enum class Source : std::uint8_t { call_keyword, config_file, argparse, parameter, assignment };

struct Setting {
  std::string key;    ///< lower case, the last dotted segment, dashes as underscores ("max_seq_len")
  std::string value;  ///< literal text (no quotes) or expression text
  facts::LiteralKind kind = facts::LiteralKind::other;
  Source source = Source::assignment;
  std::string owner;  ///< call_keyword: the call as written ("TrainingArguments"); config_file: the file
  std::string where;  ///< "path:line"
};

struct SettingTable {
  std::vector<Setting> settings;          ///< in file order
  std::vector<std::string> configs_read;  ///< config files that gave at least one known key
  /// key -> indices into `settings`, in file order (lookups by key are per field and per name: an index
  /// keeps them linear in the repo's size; a scan of the whole table per name was quadratic).
  std::unordered_map<std::string, std::vector<std::size_t>> by_key;

  /// The settings of one key, in file order.
  template <class Visit>
  void for_key(std::string_view key, Visit&& visit) const {
    const auto found = by_key.find(std::string(key));
    if (found == by_key.end()) return;
    for (const std::size_t i : found->second) visit(settings[i]);
  }
};

/// Collects every setting. `known_keys` limits config files to keys some field asks for.
SettingTable collect_settings(const program::CodeRoles& program, const std::vector<ConfigText>& configs,
                              const std::vector<std::string_view>& known_keys);

/// "path:line" (notebooks: "path:cell N:line").
std::string where(const facts::FileFacts& file, std::uint32_t line);

/// True when the code at ctx runs in training (or no entry point decides: library code counts).
bool on_training_side(const program::CodeRoles& program, program::FileId file, const facts::Context& ctx);

/// The literal a name refers to: "micro_batch_size" / "args.max_length" / "config.block_size" -> the first
/// literal setting (not a call keyword) of that key. nullptr when none.
const Setting* resolve_name(const SettingTable& table, std::string_view name);

/// Reads the known keys of one YAML or JSON document (bounded loader) into settings.
void read_config(const ConfigText& config, const std::vector<std::string_view>& known_keys, std::vector<Setting>& out);

}  // namespace tr2audit::pilot::detail
