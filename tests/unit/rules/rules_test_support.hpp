// Test helpers for the rules module: a temporary folder that removes itself, file writing, and a
// minimal valid rule whose fields a test can override.
#pragma once
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace tr2audit::rules::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    m_path = std::filesystem::temp_directory_path() /
             ("tr2audit-rules-" + std::to_string(stamp) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }

  /// Writes text to path()/rel (creating folders) and returns the full path.
  std::filesystem::path write(const std::string& rel, const std::string& text) const {
    const std::filesystem::path file = m_path / rel;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path m_path;
};

/// A valid rule file body for `id` (category taken from the id) with a `call` subject; `match` and
/// `extra` (more top-level keys) replace the defaults.
inline std::string rule_yaml(const std::string& id, const std::string& match = "  call: [torch.cuda.synchronize]\n",
                             const std::string& extra = "") {
  const std::string category = id.substr(0, id.find('.'));
  return "id: " + id + "\ntitle: A test rule\ncategory: " + category +
         "\nseverity: high\nconfidence: medium\nmessage: '{subject} is flagged'\nwhy: >-\n  Because.\n"
         "fix: Do something else.\nsources:\n  - https://awsdocs-neuron.readthedocs-hosted.com/\nmatch:\n" +
         match + extra;
}

}  // namespace tr2audit::rules::testing
