// tests/unit/discover/temp_tree: a scratch folder under the system temp directory for discovery
// tests; files are written on demand and everything is removed when the TempTree goes away.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "tr2audit/discover/discover.hpp"

namespace tr2audit::test {

class TempTree {
 public:
  TempTree() {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const std::string name = "tr2audit-discover-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
                             std::to_string(random());
    m_root = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(m_root);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  ~TempTree() {
    std::error_code ec;
    std::filesystem::permissions(m_root, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(m_root, ec);
  }

  const std::filesystem::path& root() const { return m_root; }
  std::filesystem::path path(std::string_view rel) const { return m_root / std::filesystem::path(rel); }

  /// Writes bytes to rel (creating parent folders).
  void write(std::string_view rel, std::string_view bytes) const {
    const std::filesystem::path file = path(rel);
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  void mkdir(std::string_view rel) const { std::filesystem::create_directories(path(rel)); }
  /// Creates the symlink rel pointing to target (written as given, usually relative).
  void symlink(std::string_view target, std::string_view rel, bool directory) const {
    std::filesystem::create_directories(path(rel).parent_path());
    if (directory) {
      std::filesystem::create_directory_symlink(target, path(rel));
    } else {
      std::filesystem::create_symlink(target, path(rel));
    }
  }

 private:
  std::filesystem::path m_root;
};

/// The rel_paths of a discovery result, in result order.
inline std::vector<std::string> rel_paths(const discover::DiscoveryResult& result) {
  std::vector<std::string> out;
  for (const discover::SourceFile& file : result.files) out.push_back(file.rel_path);
  return out;
}

/// The problem about path, or nullptr.
inline const Problem* problem_for(const discover::DiscoveryResult& result, std::string_view path) {
  for (const Problem& problem : result.problems) {
    if (problem.path == path) return &problem;
  }
  return nullptr;
}

}  // namespace tr2audit::test
