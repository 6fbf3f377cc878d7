// cli/scan_cache: the whole-scan result cache (issue 14, "warm re-scan"). When nothing that a scan
// reads has changed, `scan` writes the reports the same command wrote last time without loading the
// rules or parsing a file. The key is SHA-256 over everything the output depends on:
//   - every discovered file's path, kind, test flag and SHA-256 of its bytes (read once, in parallel),
//     and the discovery's problems (unreadable paths, symlink loops);
//   - the tool build, the bytes of the rule folders (rules, operator table, scoring), the config file's
//     bytes, the baseline's bytes, the git commit/branch, today's date (suppression expiry);
//   - the command: the scan path, the working folder, every flag (ScanCommandFields), the terminal
//     width and whether stdout/stderr are terminals (colour, wrapping), NO_COLOR.
// An entry holds the exit code, each rendered output (format, destination, bytes), the gate's lines
// for stderr, and the run's start time and duration, which a hit replaces with its own. Scans whose
// result depends on the machine (a parse timeout), write a baseline or compare with a PR base are
// never cached. Entries are written atomically and carry a payload checksum: a damaged entry is a miss.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tr2audit/discover/discover.hpp"
#include "tr2audit/pipeline/fact_cache.hpp"

namespace tr2audit::cli {

struct CachedOutput {
  std::string format;       ///< report format name ("json")
  std::string destination;  ///< file path as given, or "-" for stdout
  std::string bytes;
};

struct CachedScan {
  int exit_code = 0;
  std::string started_at;         ///< the cached run's run.started_at, as rendered
  std::uint64_t duration_ms = 0;  ///< the cached run's run.duration_ms, as rendered
  std::vector<CachedOutput> outputs;
  std::vector<std::string> stderr_lines;  ///< the gate's reasons (printed when no text went to stdout)
  bool text_on_stdout = false;
};

/// What the key is built from besides the files (the command's own description and the other inputs).
struct ScanKeyParts {
  std::vector<std::string> parts;
};

/// Digest over the parts and the discovered files (their bytes hashed on `jobs` threads). nullopt when a
/// discovered file cannot be read: the scan then runs (and reports the file) as usual.
std::optional<pipeline::Digest> scan_key(const ScanKeyParts& parts, const discover::DiscoveryResult& discovered,
                                         unsigned jobs);

/// The cached scan for key, or nullopt (absent, foreign or damaged).
std::optional<CachedScan> load_cached_scan(const std::filesystem::path& cache_dir, const pipeline::Digest& key);

/// Stores the scan (best effort; false when it could not be written).
bool store_cached_scan(const std::filesystem::path& cache_dir, const pipeline::Digest& key, const CachedScan& scan);

/// `bytes` with the cached run's start time and duration replaced by this run's (JSON, SARIF, HTML).
std::string restamp(std::string bytes, const CachedScan& cached, const std::string& started_at,
                    std::uint64_t duration_ms);

}  // namespace tr2audit::cli
