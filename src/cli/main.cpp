// tr2audit's entry point: builds the command tree from the register_* functions, runs it, and maps
// anything unexpected to the internal-error exit code (exceptions are for bugs, not bad input).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/suggestions.hpp"

int main(int argc, char** argv) {
  using namespace tr2audit::cli;
  CLI::App app{"tr2audit: is this PyTorch training code ready to move from GPUs to AWS Trainium2?", "tr2audit"};
  app.set_version_flag("--version", std::string("tr2audit ") + TR2AUDIT_VERSION);
  app.require_subcommand(1);
  int exit_code = k_exit_ok;
  register_scan(app, exit_code);
  register_plan(app, exit_code);
  register_compare(app, exit_code);
  register_rules(app, exit_code);
  register_ops(app, exit_code);
  register_debug(app, exit_code);
  register_config(app, exit_code);
  if (const auto misspelt = misspelt_subcommand(app, argc, argv)) {
    std::cerr << *misspelt << "\nRun with --help for more information.\n";
    return k_exit_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& error) {
    const std::string unknown = unknown_options(app, argc, argv);
    if (unknown.empty()) return app.exit(error) == 0 ? k_exit_ok : k_exit_usage;
    std::cerr << unknown << "Run with --help for more information.\n";
    return k_exit_usage;
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? k_exit_ok : k_exit_usage;
  } catch (const std::exception& error) {
    std::cerr << "tr2audit: internal error: " << error.what() << '\n';
    return k_exit_internal;
  }
  return exit_code;
}
