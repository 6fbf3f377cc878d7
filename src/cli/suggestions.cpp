#include "cli/suggestions.hpp"

#include <vector>

#include "tr2audit/core/text.hpp"

namespace tr2audit::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

/// The command the parse selected: the deepest parsed subcommand.
const CLI::App* selected(const CLI::App& app) {
  const CLI::App* current = &app;
  for (auto subs = current->get_subcommands(); !subs.empty(); subs = current->get_subcommands()) current = subs.front();
  return current;
}

std::string command_path(const CLI::App* app) {
  std::string out;
  for (; app != nullptr; app = app->get_parent()) out = app->get_name() + (out.empty() ? "" : " " + out);
  return out;
}

}  // namespace

std::optional<std::string> misspelt_subcommand(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word.front() == '-') return std::nullopt;  // options: CLI11 decides
    const auto subs = current->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;  // a command's own arguments follow
    std::vector<std::string> names;
    CLI::App* next = nullptr;
    for (CLI::App* sub : subs) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) {
      if (current->get_require_subcommand_min() == 0) return std::nullopt;
      const std::string hint = suggest(word, names);
      return command_path(current) + ": unknown command '" + word + "'" +
             (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (commands: " + joined(names) + ")";
    }
    current = next;
  }
  return std::nullopt;
}

std::string unknown_options(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* command = selected(app);
  std::vector<std::string> known;
  for (const CLI::Option* option : command->get_options()) {
    for (const auto& name : option->get_lnames()) known.push_back("--" + name);
    for (const auto& name : option->get_snames()) known.push_back("-" + name);
  }
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.size() < 2 || word.front() != '-' || (word[1] >= '0' && word[1] <= '9')) continue;
    const std::string name = word.substr(0, word.find('='));
    if (command->get_option_no_throw(name) != nullptr) continue;
    const std::string hint = suggest(name, known);
    out += command_path(command) + ": unknown option '" + name + "'" +
           (hint.empty() ? "" : "; did you mean '" + hint + "'?") + "\n";
  }
  return out;
}

}  // namespace tr2audit::cli
