// pilot/settings: the one table of named settings the pilot request's fields are looked up in.
#include "pilot/settings.hpp"

#include <algorithm>
#include <unordered_set>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::pilot::detail {
namespace {

using facts::LiteralKind;

std::string key_of(std::string_view name) {
  while (!name.empty() && name.front() == '-') name.remove_prefix(1);
  const std::size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) name = name.substr(dot + 1);
  std::string key = to_lower(name);
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

bool is_literal(LiteralKind kind) {
  return kind == LiteralKind::string || kind == LiteralKind::integer || kind == LiteralKind::floating ||
         kind == LiteralKind::boolean;
}

/// Which keys a pass keeps: settings of other keys are never built (a repo has hundreds of thousands).
using WantedKeys = std::unordered_set<std::string>;

/// parser.add_argument("--max_length", type=int, default=512): key max_length, value 512.
void argparse_setting(const facts::FileFacts& file, const facts::CallFact& call, const WantedKeys& wanted,
                      std::vector<Setting>& out) {
  std::string_view name;
  for (const auto& arg : call.args) {
    if (!arg.keyword.empty() || arg.kind != LiteralKind::string || !starts_with(arg.value, "-")) continue;
    if (name.empty() || starts_with(arg.value, "--")) name = arg.value;
  }
  if (name.empty()) return;
  std::string key = key_of(name);
  if (wanted.count(key) == 0) return;
  Setting setting{std::move(key), "", LiteralKind::none, Source::argparse, "add_argument", where(file, call.at.line)};
  for (const auto& arg : call.args) {
    if (arg.keyword == "default") {
      setting.value = arg.value;
      setting.kind = arg.kind;
      if (arg.line) setting.where = where(file, arg.line);
    }
    if (arg.keyword == "action" && setting.kind == LiteralKind::none &&
        (arg.value == "store_true" || arg.value == "store_false")) {
      setting.value = arg.value == "store_true" ? "False" : "True";
      setting.kind = LiteralKind::boolean;
    }
  }
  if (setting.kind != LiteralKind::none) out.push_back(std::move(setting));
}

bool skipped_call(const facts::CallFact& call) {
  // datasets' map/filter take batch_size/num_proc for preprocessing, not training.
  // resize_token_embeddings(pad_to_multiple_of=8) pads the vocabulary, not the inputs.
  return call.method == "generate" || call.method == "map" || call.method == "filter" ||
         call.method == "resize_token_embeddings" || ends_with(call.callee_text, "generate") ||
         call.method == "add_argument" || call.method == "get" || call.method == "getattr" ||
         call.callee_text == "getattr";
}

/// The file's settings whose key is wanted.
void file_settings(const program::CodeRoles& program, program::FileId id, const WantedKeys& wanted,
                   std::vector<Setting>& out) {
  const facts::FileFacts& file = program.file(id);
  for (const auto& call : file.calls) {
    if (call.args.empty() || !on_training_side(program, id, call.ctx)) continue;
    if (call.method == "add_argument") argparse_setting(file, call, wanted, out);
    if (skipped_call(call)) continue;
    for (const auto& arg : call.args) {
      if (arg.keyword.empty() || arg.is_splat || arg.kind == LiteralKind::none) continue;
      std::string key = key_of(arg.keyword);
      if (wanted.count(key) == 0) continue;
      std::string arg_at = where(file, arg.line ? arg.line : call.at.line);
      if (!arg.resolved.empty()) {  // an imported constant (torch.bfloat16), not a variable to resolve
        out.push_back(Setting{std::move(key), arg.resolved.dotted(), LiteralKind::other, Source::call_keyword,
                              call.callee_text, std::move(arg_at)});
        continue;
      }
      out.push_back(
          Setting{std::move(key), arg.value, arg.kind, Source::call_keyword, call.callee_text, std::move(arg_at)});
    }
  }
  for (const auto& fn : file.functions) {
    for (const auto& def : fn.param_defaults) {
      if (def.kind == LiteralKind::none) continue;
      std::string key = key_of(def.keyword);
      if (wanted.count(key) == 0) continue;
      out.push_back(Setting{std::move(key), def.value, def.kind, Source::parameter, fn.qualname,
                            where(file, def.line ? def.line : fn.at.line)});
    }
  }
  for (const auto& assign : file.assigns) {
    const std::string target = assign.target.empty() ? assign.target_text : assign.target.dotted();
    std::string key = key_of(target);
    if (wanted.count(key) == 0 || !on_training_side(program, id, assign.ctx)) continue;
    if (starts_with(target, "os.environ.")) continue;  // environment, not a training setting
    out.push_back(Setting{std::move(key), assign.value.value, assign.value.kind, Source::assignment, assign.target_text,
                          where(file, assign.at.line)});
  }
}

}  // namespace

std::string where(const facts::FileFacts& file, std::uint32_t line) {
  const auto& firsts = file.cell_first_lines;
  if (!firsts.empty() && firsts.size() == file.cell_numbers.size()) {
    const auto after = std::upper_bound(firsts.begin(), firsts.end(), line);
    if (after != firsts.begin()) {
      const std::size_t i = static_cast<std::size_t>(after - firsts.begin()) - 1;
      return file.path + ":cell " + std::to_string(file.cell_numbers[i]) + ":" + std::to_string(line - firsts[i] + 1);
    }
  }
  return file.path + ":" + std::to_string(line);
}

bool on_training_side(const program::CodeRoles& program, program::FileId file, const facts::Context& ctx) {
  if (program.file(file).is_test) return false;
  const program::RoleSet roles = program.roles_at(file, ctx);
  return roles.none() || (roles & program::training_roles()).any();
}

const Setting* resolve_name(const SettingTable& table, std::string_view name) {
  const Setting* best = nullptr;
  table.for_key(key_of(name), [&](const Setting& setting) {
    if (!is_literal(setting.kind) || setting.value.empty() || setting.source == Source::call_keyword) return;
    if (!best || static_cast<int>(setting.source) < static_cast<int>(best->source)) best = &setting;
  });
  return best;
}

SettingTable collect_settings(const program::CodeRoles& program, const std::vector<ConfigText>& configs,
                              const std::vector<std::string_view>& known_keys) {
  SettingTable table;
  const auto& files = program.files();
  // Only keys some field or check asks for are kept, and then the names their values read
  // (`max_length=max_len` needs `max_len = 2048`): a table of every keyword, default and
  // assignment of the repo was the largest block of a scan's memory.
  WantedKeys wanted;
  for (std::string_view key : known_keys) wanted.emplace(key);
  std::vector<Setting> found;
  const auto each_file = [&](const WantedKeys& keys, auto&& visit) {
    for (std::uint32_t i = 0; i < files.size(); ++i) {
      if (files[i].is_test) continue;
      found.clear();
      file_settings(program, program::FileId{i}, keys, found);
      for (auto& setting : found) visit(setting);
    }
  };
  WantedKeys keep = wanted;
  each_file(wanted, [&](const Setting& setting) {
    if (!is_literal(setting.kind) && !setting.value.empty()) keep.insert(key_of(setting.value));
  });
  each_file(keep, [&](Setting& setting) { table.settings.push_back(std::move(setting)); });
  for (const auto& config : configs) {
    const std::size_t before = table.settings.size();
    read_config(config, known_keys, table.settings);
    if (table.settings.size() > before) table.configs_read.push_back(config.path);
  }
  for (std::size_t i = 0; i < table.settings.size(); ++i) table.by_key[table.settings[i].key].push_back(i);
  return table;
}

}  // namespace tr2audit::pilot::detail
