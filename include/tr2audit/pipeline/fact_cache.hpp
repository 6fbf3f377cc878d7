// pipeline/fact_cache: the result cache. One entry per Python file holds its facts (facts_binary),
// keyed by SHA-256 over the file's scanned text and path, the tool build, the rules/table/scoring
// bytes, the target profile and the extraction options, so anything that can change a file's facts
// changes the key. Entries are written to a temporary name and renamed (concurrent scans are safe)
// and carry a checksum: a damaged or foreign entry is ignored and written again.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "tr2audit/discover/source_file.hpp"
#include "tr2audit/facts/facts.hpp"

namespace tr2audit::pipeline {

using Digest = std::array<unsigned char, 32>;

/// SHA-256 of some parts, each length-prefixed so ("ab","c") and ("a","bc") differ.
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  Hasher& add(std::string_view part);
  Digest finish();

 private:
  void* m_ctx;
};

/// A regular file's bytes with one open and exact-size reads; nullopt when it is absent, not a regular
/// file, unreadable or changed size while read. `follow_symlinks = false` for cache entries (O_NOFOLLOW).
std::optional<std::string> read_whole_file(const std::filesystem::path& path, bool follow_symlinks);

/// Lower-case hex of a digest.
std::string to_hex(const Digest& digest);

/// What identifies this build of the tool: the version and the ELF build id (or, without one, the
/// SHA-256 of the executable), so facts written by another build are never read.
std::string build_identity();

/// Counters of one scan (updated from worker threads).
struct CacheCounters {
  std::atomic<std::size_t> hits{0};
  std::atomic<std::size_t> misses{0};
  std::atomic<std::size_t> bad{0};  ///< entries that existed but failed the checks (rewritten)
  std::atomic<std::size_t> writes{0};
  std::atomic<bool> write_failed{false};  ///< after the first failed write the cache stops writing
};

class FactCache {
 public:
  /// dir: the cache folder (created on the first write, mode 0700); scope: everything besides the
  /// file that the facts depend on (see the header comment), hashed into every key.
  FactCache(std::filesystem::path dir, std::string_view scope);

  Digest key(const discover::SourceFile& file, const discover::LoadedSource& source) const;
  /// The cached facts, or nullopt (a miss, or an entry that failed its checks).
  std::optional<facts::FileFacts> load(const Digest& key);
  /// Writes the entry (best effort: a read-only or full disk only costs the next scan the work).
  void store(const Digest& key, const facts::FileFacts& facts);

  const std::filesystem::path& dir() const { return m_dir; }
  CacheCounters& counters() { return m_counters; }

 private:
  std::filesystem::path entry_path(const Digest& key) const;

  std::filesystem::path m_dir;  ///< <cache dir>/facts-v<N>
  std::string m_scope;          ///< digest of the scope
  CacheCounters m_counters;
  std::atomic<std::uint64_t> m_temp_counter{0};
};

}  // namespace tr2audit::pipeline
