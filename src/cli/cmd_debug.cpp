// `tr2audit debug tree|facts FILE`: what the parser and the extractor see, for rule authors.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/knowledge.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/facts/facts_json.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/program/program.hpp"
#include "tr2audit/rules/match.hpp"
#include "tr2audit/rules/rule_set.hpp"

namespace tr2audit::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t k_debug_max_file_size = 1ull << 30;  // debug reads what it is given, up to 1 GiB

struct DebugCommand {
  std::string file;
  std::string repo;  ///< facts: build the program over this whole repo (the file must lie inside it)
};

discover::SourceFile single_file(const std::string& path) {
  discover::DiscoveryOptions options;
  options.max_file_size = k_debug_max_file_size;
  auto result = discover::discover(path, options);
  if (!result.files.empty()) return result.files.front();
  discover::SourceFile file;  // an unusual name: scan it as Python anyway
  file.rel_path = std::filesystem::path(path).filename().string();
  file.abs_path = path;
  return file;
}

// What the repository model says of one file: entry points, each function's roles and the chain that
// reaches it, and the guards of each branch as the whole program sees them.
nlohmann::ordered_json program_json(const program::Program& model, program::FileId id) {
  using Json = nlohmann::ordered_json;
  const facts::FileFacts& file = model.file(id);
  Json entries = Json::array();
  for (const auto& entry : model.entry_points()) {
    if (entry.function.file != id) continue;
    entries.push_back(Json{{"function", model.describe(entry.function)},
                           {"role", std::string(program::to_string(entry.role))},
                           {"why", entry.why}});
  }
  Json functions = Json::array();
  for (std::int32_t i = -1; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
    const program::RoleSet roles = model.roles(program::FunctionId{id, i});
    if (roles.none()) continue;
    facts::Context ctx;
    ctx.function = i;
    functions.push_back(
        Json{{"function", i < 0 ? std::string("<module>") : file.functions[static_cast<std::size_t>(i)].qualname},
             {"roles", program::role_names(roles)},
             {"reached_from", model.reached_from(id, ctx)}});
  }
  Json branches = Json::array();
  for (std::size_t b = 0; b < file.branches.size(); ++b) {
    facts::Context ctx;
    ctx.branch = static_cast<std::int32_t>(b);
    const std::uint16_t extra = model.guards_at(id, ctx);
    if (extra == 0) continue;
    Json j{{"line", file.branches[b].at.line}, {"guards", facts::guard_names(extra)}};
    const std::string option = model.opt_in_option(id, ctx);
    if (!option.empty()) j["opt_in"] = option;
    branches.push_back(std::move(j));
  }
  return Json{{"entry_points", entries},
              {"functions", functions},
              {"branch_guards", branches},
              {"types", model.type_notes(id)}};
}

/// A file that could not be read, named by the whole path the user gave (the problem knows only its name).
int report_failure(const DebugCommand& cmd, Problem problem) {
  problem.path = cmd.file;
  std::cerr << "tr2audit: debug: " << format_problem(problem) << "\n";
  return k_exit_usage;
}

int run_tree(const DebugCommand& cmd) {
  const discover::SourceFile file = single_file(cmd.file);
  discover::LoadResult loaded = discover::load_source(file, k_debug_max_file_size);
  if (!loaded.ok) return report_failure(cmd, loaded.problem);
  facts::Extractor extractor;
  std::cout << extractor.dump_tree(loaded.source.text);
  return k_exit_ok;
}

// The program over a whole repo, printed for one of its files: roles, chains and types as a scan sees them.
int run_repo_facts(const DebugCommand& cmd) {
  std::error_code ec;
  const fs::path root = fs::canonical(cmd.repo, ec);
  const fs::path target = fs::canonical(cmd.file, ec);
  const discover::DiscoveryResult discovered = discover::discover(root, discover::DiscoveryOptions{});
  facts::Extractor extractor;
  std::vector<facts::FileFacts> files;
  std::optional<std::size_t> index;
  for (const discover::SourceFile& file : discovered.files) {
    if (fs::equivalent(file.abs_path, target, ec)) index = files.size();
    files.push_back(pipeline::analyze_file(file, extractor, k_debug_max_file_size).facts);
  }
  if (!index) {
    std::cerr << "tr2audit: debug: " << cmd.file << " is not a scanned file of " << cmd.repo << "\n";
    return k_exit_usage;
  }
  rules::LoadedRules loaded = rules::load_rules(rule_folders({}));
  nlohmann::ordered_json out = facts::to_json(files[*index]);
  const program::Program model =
      program::Program::build(std::move(files), false, rules::lockin_knowledge(loaded.rules, TargetProfile::native));
  out["program"] = program_json(model, program::FileId{static_cast<std::uint32_t>(*index)});
  std::cout << out.dump(2) << "\n";
  return k_exit_ok;
}

int run_facts(const DebugCommand& cmd) {
  if (!cmd.repo.empty()) return run_repo_facts(cmd);
  const discover::SourceFile file = single_file(cmd.file);
  facts::Extractor extractor;
  pipeline::FileAnalysis analysis = pipeline::analyze_file(file, extractor, k_debug_max_file_size);
  if (!analysis.loaded) return report_failure(cmd, analysis.facts.problems.front());
  nlohmann::ordered_json out = facts::to_json(analysis.facts);
  std::vector<facts::FileFacts> files;
  files.push_back(std::move(analysis.facts));
  const program::Program model = program::Program::build(std::move(files), true);
  out["program"] = program_json(model, program::FileId{0});
  std::cout << out.dump(2) << "\n";
  return k_exit_ok;
}

}  // namespace

void register_debug(CLI::App& app, int& exit_code) {
  CLI::App* debug = app.add_subcommand("debug", "Show what tr2audit sees in a file (for rule authors)");
  debug->require_subcommand(1);
  auto tree_cmd = std::make_shared<DebugCommand>();
  CLI::App* tree = debug->add_subcommand("tree", "Print the tree-sitter syntax tree of a Python file");
  tree->add_option("file", tree_cmd->file, "Python file")->required();
  tree->callback([tree_cmd, &exit_code] { exit_code = run_tree(*tree_cmd); });
  auto facts_cmd = std::make_shared<DebugCommand>();
  CLI::App* facts = debug->add_subcommand("facts", "Print the extracted facts of a file as JSON");
  facts->add_option("file", facts_cmd->file, "Python, notebook or manifest file")->required();
  facts->add_option("--repo", facts_cmd->repo,
                    "Build the repository model over this folder (roles, chains and types as a scan sees them)");
  facts->callback([facts_cmd, &exit_code] { exit_code = run_facts(*facts_cmd); });
}

}  // namespace tr2audit::cli
