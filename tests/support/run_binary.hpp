// Test support: run the built tr2audit binary and capture its exit code, stdout and stderr.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace tr2audit::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// A fresh, empty folder under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    m_path = std::filesystem::temp_directory_path() / ("tr2audit-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }
  /// Writes content to a relative path, creating folders.
  std::filesystem::path write(const std::string& rel, const std::string& content) const {
    const auto target = m_path / rel;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream(target, std::ios::binary) << content;
    return target;
  }

 private:
  std::filesystem::path m_path;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Runs `tr2audit <args>` (args are passed to /bin/sh: quote them) with no stdin. Runs as under CI
/// (the default result cache off: timings and outputs never depend on earlier runs) with the default
/// cache folder, when a test turns it on, in a fresh folder of this run; `env` is put before the
/// binary (e.g. "env -u CI HOME=/x").
inline RunResult run_tr2audit(const std::string& args, const std::string& env = "") {
  TempDir scratch;
  const auto out = scratch.path() / "out";
  const auto err = scratch.path() / "err";
  const std::string command = "CI=true XDG_CACHE_HOME='" + (scratch.path() / "cache").string() + "' " + env + " '" +
                              TR2AUDIT_BINARY + "' " + args + " </dev/null >'" + out.string() + "' 2>'" + err.string() +
                              "'";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

}  // namespace tr2audit::testing
