// `tr2audit debug tree|facts FILE`: what the parser and the extractor see, for rule authors.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "tr2audit/discover/discover.hpp"
#include "tr2audit/facts/extract.hpp"
#include "tr2audit/facts/facts_json.hpp"
#include "tr2audit/pipeline/scan.hpp"

namespace tr2audit::cli {
namespace {

constexpr std::uint64_t k_debug_max_file_size = 1ull << 30;  // debug reads what it is given, up to 1 GiB

struct DebugCommand {
  std::string file;
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

int run_tree(const DebugCommand& cmd) {
  const discover::SourceFile file = single_file(cmd.file);
  discover::LoadResult loaded = discover::load_source(file, k_debug_max_file_size);
  if (!loaded.ok) {
    std::cerr << "tr2audit: " << format_problem(loaded.problem) << "\n";
    return k_exit_usage;
  }
  facts::Extractor extractor;
  std::cout << extractor.dump_tree(loaded.source.text);
  return k_exit_ok;
}

int run_facts(const DebugCommand& cmd) {
  const discover::SourceFile file = single_file(cmd.file);
  facts::Extractor extractor;
  pipeline::FileAnalysis analysis = pipeline::analyze_file(file, extractor, k_debug_max_file_size, {});
  if (!analysis.loaded) {
    std::cerr << "tr2audit: " << format_problem(analysis.facts.problems.front()) << "\n";
    return k_exit_usage;
  }
  std::cout << facts::to_json(analysis.facts).dump(2) << "\n";
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
  facts->callback([facts_cmd, &exit_code] { exit_code = run_facts(*facts_cmd); });
}

}  // namespace tr2audit::cli
