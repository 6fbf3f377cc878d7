#include "tr2audit/pipeline/scan_stats.hpp"

#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdio>

namespace tr2audit::pipeline {
namespace {

std::string ms(Nanos t) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%9.1f ms", static_cast<double>(t.count()) / 1e6);
  return buffer;
}

std::string mib(std::size_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buffer;
}

}  // namespace

std::size_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0) return 0;
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

void release_free_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::string format_stats(const ScanStats& s) {
  std::string out = "tr2audit stats: " + std::to_string(s.files) + " files, " + std::to_string(s.parsed) +
                    " parsed, --jobs " + std::to_string(s.jobs) + "\n";
  out += "  stage      time (read/parse/extract/match: summed over threads)\n";
  const std::pair<const char*, Nanos> stages[] = {{"discover", s.discover}, {"read", s.read},       {"parse", s.parse},
                                                  {"extract", s.extract},   {"program", s.program}, {"match", s.match},
                                                  {"score", s.score},       {"render", s.render},   {"total", s.total}};
  for (const auto& [name, time] : stages) {
    char line[64];
    std::snprintf(line, sizeof line, "  %-9s", name);
    out += line + ms(time) + "\n";
  }
  if (!s.slowest_passes.empty()) {
    out += "  slowest passes of the program stage:\n";
    for (const auto& [pass, time] : s.slowest_passes) out += "  " + ms(time) + "  " + pass + "\n";
  }
  out += "  peak memory (resident, when the stage ended): extract " + mib(s.peak_after_extract) + ", program " +
         mib(s.peak_after_program) + ", match " + mib(s.peak_after_match) + ", end " + mib(s.peak_at_end) + "\n";
  out += "  prefilter: " + std::to_string(s.prefilter_skipped) + " files skipped\n";
  if (s.cache_enabled) {
    out += "  cache: " + std::to_string(s.cache_hits) + " hits, " + std::to_string(s.cache_misses) + " misses (" +
           std::to_string(s.cache_bad) + " bad entries), " + std::to_string(s.cache_writes) + " written, in " +
           s.cache_dir + "\n";
  } else {
    out += "  cache: off\n";
  }
  out += "  slowest files (read + parse + extract + match):\n";
  for (const FileTime& f : s.slowest_files) out += "  " + ms(f.time) + "  " + f.path + "\n";
  out += "  rules with the most findings:\n";
  for (const auto& [rule, count] : s.busiest_rules) out += "  " + std::to_string(count) + "\t" + rule + "\n";
  return out;
}

}  // namespace tr2audit::pipeline
