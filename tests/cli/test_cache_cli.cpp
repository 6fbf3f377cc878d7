// The result cache and --stats as a user meets them: where the cache goes by default (never inside
// the scanned folder, off under CI), that a warm re-scan hits, and that a rule change misses.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "support/run_binary.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::slurp;
using tr2audit::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path k_example = fs::path(TR2AUDIT_SOURCE_DIR) / "examples" / "mixed-with-fallbacks";

std::string quoted(const fs::path& p) {
  return "'" + p.string() + "'";
}

/// All paths under root (to compare a folder before and after a scan).
std::vector<std::string> listing(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) out.push_back(fs::relative(e.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("scan --stats prints every stage, the cache and the slowest files to stderr", "[cli][cache]") {
  TempDir out;
  const auto result = run_tr2audit("scan " + quoted(k_example) + " --no-cache --stats --format json -o " +
                                   quoted(out.path() / "r.json"));
  REQUIRE(result.exit_code == 0);
  for (const char* stage : {"discover", "read", "parse", "extract", "program", "match", "score", "render", "total"})
    CHECK(result.err.find(std::string("  ") + stage + " ") != std::string::npos);
  CHECK(result.err.find("prefilter: 0 files skipped") != std::string::npos);
  // Peak memory per stage, in MiB and never zero on Linux (getrusage).
  const auto peak = result.err.find("peak memory (resident, when the stage ended): extract ");
  REQUIRE(peak != std::string::npos);
  CHECK(result.err.find(" 0.0 MiB", peak) > result.err.find('\n', peak));
  CHECK(result.err.find("end ", peak) < result.err.find('\n', peak));
  CHECK(result.err.find("cache: off") != std::string::npos);
  CHECK(result.err.find("slowest files") != std::string::npos);
  CHECK(result.err.find("train.py") != std::string::npos);
  CHECK(result.err.find("rules with the most findings") != std::string::npos);
}

TEST_CASE("scan --cache-dir: the second scan hits, a changed rule folder misses", "[cli][cache]") {
  TempDir dir;
  const fs::path cache = dir.path() / "cache";
  const std::string args = "scan " + quoted(k_example) + " --stats --cache-dir " + quoted(cache) + " --format json -o ";
  const auto first = run_tr2audit(args + quoted(dir.path() / "1.json"));
  const auto second = run_tr2audit(args + quoted(dir.path() / "2.json"));
  REQUIRE(first.exit_code == 0);
  REQUIRE(second.exit_code == 0);
  CHECK(first.err.find("cache: 0 hits") != std::string::npos);
  CHECK(second.err.find(" 0 misses (0 bad entries), 0 written") != std::string::npos);
  fs::create_directories(dir.path() / "more-rules");
  const auto third =
      run_tr2audit(args + quoted(dir.path() / "3.json") + " --rules " + quoted(dir.path() / "more-rules"));
  REQUIRE(third.exit_code == 0);
  CHECK(third.err.find("cache: 0 hits") != std::string::npos);
}

TEST_CASE("scan: the default cache is off under CI and never inside the scanned folder", "[cli][cache][hostile]") {
  TempDir dir;
  const fs::path repo = dir.path() / "repo";
  fs::copy(k_example, repo, fs::copy_options::recursive);
  const auto before = listing(repo);
  const std::string args = "scan " + quoted(repo) + " --stats --format json -o " + quoted(dir.path() / "r.json");
  // HOME is the scanned folder: ~/.cache/tr2audit would be inside it.
  const auto home_inside = run_tr2audit(args, "env -u XDG_CACHE_HOME -u CI -u TR2AUDIT_CACHE_DIR HOME=" + quoted(repo));
  REQUIRE(home_inside.exit_code == 0);
  CHECK(home_inside.err.find("cache: off") != std::string::npos);
  CHECK(listing(repo) == before);
  const auto ci = run_tr2audit(args, "env -u TR2AUDIT_CACHE_DIR CI=true");
  CHECK(ci.err.find("cache: off") != std::string::npos);
  const auto local = run_tr2audit(args, "env -u TR2AUDIT_CACHE_DIR -u CI");
  CHECK(local.err.find("cache: 0 hits") != std::string::npos);
  const auto ci_opt_in = run_tr2audit(args + " --cache-dir " + quoted(dir.path() / "c"), "env CI=true");
  CHECK(ci_opt_in.err.find("cache: 0 hits") != std::string::npos);
  CHECK(listing(repo) == before);
}

namespace {

/// The report without the two fields a cache hit restamps.
std::string without_timing(const std::string& json) {
  std::string out;
  std::size_t start = 0;
  while (start < json.size()) {
    std::size_t end = json.find('\n', start);
    if (end == std::string::npos) end = json.size();
    const std::string line = json.substr(start, end - start);
    if (line.find("\"started_at\"") == std::string::npos && line.find("\"duration_ms\": ") == std::string::npos)
      out += line + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("scan: the whole-scan cache replays an unchanged scan and misses on any change", "[cli][cache]") {
  TempDir dir;
  const fs::path repo = dir.path() / "repo";
  fs::copy(k_example, repo, fs::copy_options::recursive);
  const fs::path cache = dir.path() / "cache";
  const fs::path report = dir.path() / "r.json";
  const std::string args = "scan " + quoted(repo) + " --stats --cache-dir " + quoted(cache) +
                           " --fail-on medium --format json -o " + quoted(report);
  const auto first = run_tr2audit(args);
  const std::string cold = slurp(report);
  CHECK(first.err.find("whole-scan cache hit") == std::string::npos);
  const auto second = run_tr2audit(args);
  CHECK(second.err.find("whole-scan cache hit") != std::string::npos);
  CHECK(second.exit_code == first.exit_code);  // the gate's verdict is replayed too
  CHECK(first.exit_code == 1);
  CHECK(second.err.find("tr2audit: gate ") != std::string::npos);
  const std::string warm = slurp(report);
  CHECK(without_timing(warm) == without_timing(cold));
  CHECK(warm.find("\"started_at\"") != std::string::npos);

  // Any change to a scanned file is a miss, and the new report says what changed.
  { std::ofstream(repo / "reviewclf" / "extra.py") << "import torch\nx = torch.zeros(2).cuda()\n"; }
  const auto changed = run_tr2audit(args);
  CHECK(changed.err.find("whole-scan cache hit") == std::string::npos);
  CHECK(slurp(report).find("reviewclf/extra.py") != std::string::npos);

  // Another output (or format) is another entry; a damaged entry is a miss, never a wrong report.
  const auto other = run_tr2audit("scan " + quoted(repo) + " --stats --cache-dir " + quoted(cache) +
                                  " --format sarif -o " + quoted(dir.path() / "r.sarif"));
  CHECK(other.err.find("whole-scan cache hit") == std::string::npos);
  for (const auto& entry : fs::directory_iterator(cache / "scans-v1")) {
    std::ofstream(entry.path(), std::ios::binary | std::ios::app) << "garbage";
  }
  const auto damaged = run_tr2audit(args);
  CHECK(damaged.err.find("whole-scan cache hit") == std::string::npos);
  CHECK(damaged.exit_code == first.exit_code);
  const auto again = run_tr2audit(args);
  CHECK(again.err.find("whole-scan cache hit") != std::string::npos);

  // A scan that writes a baseline always runs.
  const auto baseline = run_tr2audit(args + " --write-baseline " + quoted(dir.path() / "b.json"));
  CHECK(baseline.err.find("whole-scan cache hit") == std::string::npos);
  CHECK(fs::exists(dir.path() / "b.json"));
}
