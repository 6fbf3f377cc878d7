// Runs the validator scripts in tests/tools/ from the report and golden tests. A script exits 77
// when its tool is not installed: the caller then WARNs and skips (bootstrap installs them in CI).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tr2audit::report::testing {

struct ToolRun {
  int status = -1;  ///< the script's exit code; 77 = tool missing
  std::string output;
  bool skipped() const { return status == 77; }
  bool ok() const { return status == 0; }
};

/// Runs tests/tools/<script> with shell-quoted arguments, capturing stdout and stderr.
inline ToolRun run_tool_script(const std::string& script, const std::vector<std::string>& args) {
  const auto quote = [](const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };
  std::string command = quote(std::string(TR2AUDIT_SOURCE_DIR) + "/tests/tools/" + script);
  for (const auto& arg : args) command += " " + quote(arg);
  command += " 2>&1";
  ToolRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.output.append(buffer.data(), n);
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

/// A fresh temporary folder for one test's files.
inline std::filesystem::path temp_dir(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tr2audit-report-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace tr2audit::report::testing
