// pipeline/scan_stats: where one scan spent its time (`tr2audit scan --stats`). Filled by
// pipeline::scan when ScanOptions::stats is set; the CLI adds the render time and prints it.
// Per-file stages (read, parse, extract, match) are summed over worker threads (thread time, so
// they can exceed the wall time with --jobs > 1); the others are wall time.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tr2audit::pipeline {

using Nanos = std::chrono::nanoseconds;

struct FileTime {
  std::string path;
  Nanos time{0};  ///< read + parse + extract + match of this file
};

struct ScanStats {
  Nanos discover{0};
  Nanos read{0};     ///< loading the files (and hashing them for the cache)
  Nanos parse{0};    ///< tree-sitter
  Nanos extract{0};  ///< the walk that turns a tree into facts (or reading them from the cache)
  Nanos program{0};  ///< the repository model: symbols, call graph, entry points, roles
  Nanos match{0};    ///< rules, snippets, operator lookups, suppressions
  Nanos score{0};
  Nanos render{0};  ///< set by the CLI
  Nanos total{0};   ///< wall time of the whole scan (the CLI adds the render time)

  /// Peak resident memory of the process (bytes) when each stage ended: where a scan's memory goes.
  std::size_t peak_after_extract = 0;
  std::size_t peak_after_program = 0;
  std::size_t peak_after_match = 0;
  std::size_t peak_at_end = 0;  ///< set by the CLI after rendering

  unsigned jobs = 0;
  std::size_t files = 0;
  std::size_t parsed = 0;             ///< files parsed by tree-sitter in this scan
  std::size_t prefilter_skipped = 0;  ///< files whose parse a literal prefilter skipped
  bool cache_enabled = false;
  std::string cache_dir;
  std::size_t cache_hits = 0;
  std::size_t cache_misses = 0;
  std::size_t cache_bad = 0;  ///< damaged or foreign entries (ignored and rewritten)
  std::size_t cache_writes = 0;
  std::vector<FileTime> slowest_files;  ///< the 10 slowest, slowest first
  /// The 8 slowest passes of the program stage (wall time), slowest first.
  std::vector<std::pair<std::string, Nanos>> slowest_passes;
  /// The 10 rules with the most findings (matching is indexed by fact name, so a rule's cost is its
  /// candidates and findings, not a walk of its own).
  std::vector<std::pair<std::string, std::size_t>> busiest_rules;
};

/// The process's peak resident memory so far, in bytes (getrusage); 0 where unknown.
std::size_t peak_resident_bytes();

/// Hands the heap's free pages back to the system between stages (glibc's malloc_trim; nothing
/// elsewhere): what a stage freed (syntax trees, scratch tables) in one thread's arena otherwise stays
/// resident while the next stage's allocations land in another.
void release_free_heap();

/// The stats as text lines for stderr.
std::string format_stats(const ScanStats& stats);

}  // namespace tr2audit::pipeline
