// program/launched_options: the flags shipped shell scripts pass to the repo scripts they launch. `if "deepspeed" in
// args.strategy:` with `--strategy` defaulting to "auto" runs in every documented run when each launch line of
// train.py passes `--strategy deepspeed_stage_2`; one launch without the flag runs the default.
#include <algorithm>
#include <optional>
#include <unordered_map>

#include "program/option_values.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program::option_values {
namespace {

// The repo file a launch line runs: `train.py` beside the script, or a path from the repo's root (`-m pkg.train`
// as `pkg/train.py`).
std::optional<std::uint32_t> launched_file(const std::unordered_map<std::string_view, std::uint32_t>& by_path,
                                           std::string_view script_path, std::string_view program) {
  std::string relative(program);
  while (starts_with(relative, "./")) relative.erase(0, 2);
  if (!ends_with(relative, ".py")) {
    std::replace(relative.begin(), relative.end(), '.', '/');
    relative += ".py";
  }
  const auto slash = script_path.rfind('/');
  const std::string beside =
      slash == std::string_view::npos ? relative : std::string(script_path.substr(0, slash + 1)) + relative;
  for (const std::string& candidate : {beside, relative}) {
    if (const auto it = by_path.find(candidate); it != by_path.end()) return it->second;
  }
  return std::nullopt;
}

}  // namespace

LaunchedOptions::LaunchedOptions(const std::vector<facts::FileFacts>& files,
                                 const std::unordered_map<std::uint32_t, OptionDefaults>& cli)
    : m_files(files), m_cli(cli) {
  std::unordered_map<std::string_view, std::uint32_t> by_path;
  for (std::uint32_t g = 0; g < files.size(); ++g) by_path.emplace(files[g].path.view(), g);
  for (std::uint32_t script = 0; script < files.size(); ++script) {
    const auto& programs = files[script].launched_programs;
    for (std::size_t p = 0; p < programs.size(); ++p) {
      const auto first = programs.begin() + static_cast<std::ptrdiff_t>(p);
      if (std::find(programs.begin(), first, programs[p]) != first) continue;  // each program once per script
      const auto target = launched_file(by_path, files[script].path.view(), programs[p].view());
      if (!target || !cli.count(*target)) continue;
      m_launches.push_back(
          Launch{script, *target, programs[p].view(), std::count(programs.begin(), programs.end(), programs[p])});
    }
  }
}

bool LaunchedOptions::on(std::string_view name, const facts::ConditionTerm& term) const {
  facts::ConditionTerm keyed = term;
  keyed.name = FactString(name);
  bool passed = false;
  for (const Launch& launch : m_launches) {
    if (!m_cli.at(launch.target).known(std::string(name))) continue;
    std::ptrdiff_t setting = 0;
    for (const auto& flag : m_files[launch.script].settings) {
      if (flag.program != launch.program || option_name_of(flag.key) != name) continue;
      facts::Argument value;
      value.kind = facts::LiteralKind::string;
      value.value = flag.value;
      if (const auto literal = literal_of(flag.value)) value = *literal;
      // (`--my_testing $MODEL_TYPE` where the script never assigns MODEL_TYPE: it may well take the branch.)
      const bool unresolved = starts_with(flag.value, "$");
      if (!unresolved && leaves_off(value, keyed)) return false;
      ++setting;
    }
    if (setting < launch.lines) return false;
    passed = true;
  }
  return passed;
}

}  // namespace tr2audit::program::option_values
