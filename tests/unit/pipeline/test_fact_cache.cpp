// The result cache: a cached re-scan gives the same report byte for byte, damaged entries are
// survived and rewritten, and anything in the key (file bytes, rules, build) invalidates.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run_binary.hpp"
#include "tr2audit/pipeline/fact_cache.hpp"
#include "tr2audit/pipeline/scan.hpp"
#include "tr2audit/report/report.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "tr2audit/score/policy.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;
using tr2audit::testing::TempDir;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

struct Scanner {
  rules::LoadedRules loaded = rules::load_rules({k_repo / "rules"});
  rules::LoadedOpTable table = rules::OpTable::load(k_repo / "rules" / "neuron-ops.yaml");
  score::LoadedPolicy policy = score::load_policy(k_repo / "rules" / "scoring.yaml");

  /// The JSON report of root (run info fixed) and the scan's stats.
  std::string scan(const fs::path& root, const fs::path& cache, pipeline::ScanStats& stats,
                   const std::string& scope = "rules-1") {
    pipeline::ScanOptions options;
    options.root = root;
    options.jobs = 2;
    options.cache_dir = cache;
    options.cache_scope = scope;
    options.suppress_today = "2026-12-01";
    options.stats = &stats;
    report::Report result = pipeline::scan(options, pipeline::Knowledge{loaded.rules, &*table.table, &*policy.policy});
    result.run = report::RunInfo{"<version>", "<version>", "1970-01-01T00:00:00Z", 0};
    std::ostringstream out;
    report::find_format("json")->render(result, report::RenderOptions{}, out);
    return out.str();
  }
};

/// A copy of an example repo plus a suppressed line, in a temp folder.
fs::path make_repo(const TempDir& dir) {
  const fs::path root = dir.path() / "repo";
  fs::copy(k_repo / "examples" / "mixed-with-fallbacks", root, fs::copy_options::recursive);
  std::ofstream(root / "extra.py")
      << "import torch\n\ndef f(x):\n"
         "    return x.cuda()  # tr2audit: ignore[cuda-api.cuda-method] moved by the caller\n"
         "# tr2audit: ignore[cuda-api.cuda-method] nothing here\n";
  return root;
}

std::vector<fs::path> entries(const fs::path& cache) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(cache)) {
    if (e.is_regular_file()) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("fact cache: a cached re-scan gives a byte-identical report and parses nothing", "[cache][pipeline]") {
  TempDir dir;
  const fs::path root = make_repo(dir);
  Scanner scanner;
  REQUIRE(scanner.loaded.problems.empty());
  pipeline::ScanStats none, cold, warm;
  const std::string uncached = scanner.scan(root, {}, none);
  const std::string first = scanner.scan(root, dir.path() / "cache", cold);
  const std::string second = scanner.scan(root, dir.path() / "cache", warm);
  CHECK(first == uncached);
  CHECK(second == uncached);
  CHECK(cold.cache_hits == 0);
  CHECK(cold.cache_writes == cold.parsed);
  CHECK(cold.parsed > 3);
  CHECK(warm.cache_hits == cold.parsed);
  CHECK(warm.parsed == 0);
  CHECK(warm.cache_writes == 0);
  CHECK(entries(dir.path() / "cache").size() == cold.parsed);
  CHECK(uncached.find("moved by the caller") != std::string::npos);  // the suppression applied from cached facts
}

TEST_CASE("fact cache: damaged entries are ignored and rewritten", "[cache][pipeline]") {
  TempDir dir;
  const fs::path root = make_repo(dir);
  Scanner scanner;
  pipeline::ScanStats cold, damaged, after;
  const std::string expected = scanner.scan(root, dir.path() / "cache", cold);
  const auto files = entries(dir.path() / "cache");
  REQUIRE(files.size() >= 3);
  fs::resize_file(files[0], fs::file_size(files[0]) / 2);  // torn write
  {
    std::fstream flip(files[1], std::ios::in | std::ios::out | std::ios::binary);
    flip.seekp(static_cast<std::streamoff>(fs::file_size(files[1]) - 3));
    flip.put('\x7f');  // one byte of the payload: the checksum no longer matches
  }
  std::ofstream(files[2], std::ios::binary) << "not an entry";
  CHECK(scanner.scan(root, dir.path() / "cache", damaged) == expected);
  CHECK(damaged.cache_bad == 3);
  CHECK(damaged.cache_writes == 3);
  CHECK(scanner.scan(root, dir.path() / "cache", after) == expected);
  CHECK(after.cache_hits == cold.parsed);
  CHECK(after.cache_bad == 0);
}

TEST_CASE("fact cache: a changed file, rule set or build misses", "[cache][pipeline]") {
  TempDir dir;
  const fs::path root = make_repo(dir);
  Scanner scanner;
  pipeline::ScanStats cold, edited, other_rules;
  scanner.scan(root, dir.path() / "cache", cold);
  std::ofstream(root / "extra.py", std::ios::app) << "y = 1\n";
  scanner.scan(root, dir.path() / "cache", edited);
  CHECK(edited.cache_misses == 1);
  CHECK(edited.cache_hits == cold.parsed - 1);
  scanner.scan(root, dir.path() / "cache", other_rules, "rules-2");
  CHECK(other_rules.cache_hits == 0);
  CHECK(other_rules.parsed == cold.parsed);
}

TEST_CASE("fact cache: keys cover the path and the text, and the build identity is stable", "[cache]") {
  pipeline::FactCache cache("/nonexistent", "scope");
  discover::SourceFile a{"a.py", "a.py"};
  discover::SourceFile b{"b.py", "b.py"};
  discover::LoadedSource text{"import torch\n"};
  discover::LoadedSource other{"import torch \n"};
  CHECK(cache.key(a, text) == cache.key(a, text));
  CHECK(cache.key(a, text) != cache.key(b, text));
  CHECK(cache.key(a, text) != cache.key(a, other));
  CHECK(pipeline::FactCache("/nonexistent", "scope2").key(a, text) != cache.key(a, text));
  CHECK(pipeline::build_identity() == pipeline::build_identity());
  CHECK(pipeline::build_identity().rfind(TR2AUDIT_VERSION "+", 0) == 0);
  CHECK_FALSE(cache.load(cache.key(a, text)));  // a missing folder is a miss, not an error
}
