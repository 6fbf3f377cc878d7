// cli/suggestions: "did you mean" on the command line. A misspelt subcommand is caught before CLI11
// parses (CLI11 would only say "A subcommand is required"); an unknown option after CLI11 rejects it.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace tr2audit::cli {

/// The message for the first word that should name a subcommand but names none ("tr2audit: unknown
/// command 'scna'; did you mean 'scan'?"), or nullopt when the words name commands.
std::optional<std::string> misspelt_subcommand(CLI::App& app, int argc, const char* const* argv);

/// After CLI11 rejected extra arguments: one line per option the selected command does not know, with
/// the nearest option it does know; "" when no option was unknown (an extra positional instead).
std::string unknown_options(const CLI::App& app, int argc, const char* const* argv);

}  // namespace tr2audit::cli
