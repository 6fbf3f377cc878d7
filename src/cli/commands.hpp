// cli/commands: one file per subcommand (CLI11's subcom_in_files). Each registers its options and
// a callback on the app; the callback stores the exit code in `exit_code`. main.cpp only calls the
// register_* functions, in the order they appear in --help.
#pragma once
#include <CLI/CLI.hpp>

namespace tr2audit::cli {

void register_scan(CLI::App& app, int& exit_code);     // cmd_scan.cpp
void register_plan(CLI::App& app, int& exit_code);     // cmd_plan.cpp: plan PATH | plan --record-template DIR
void register_compare(CLI::App& app, int& exit_code);  // cmd_compare.cpp: compare gpu.json trn2.json
void register_rules(CLI::App& app, int& exit_code);    // cmd_rules.cpp: rules list|explain|test|docs
void register_ops(CLI::App& app, int& exit_code);      // cmd_ops.cpp: ops lookup|list
void register_debug(CLI::App& app, int& exit_code);    // cmd_debug.cpp: debug tree|facts
void register_config(CLI::App& app, int& exit_code);   // cmd_config.cpp: config show

}  // namespace tr2audit::cli
