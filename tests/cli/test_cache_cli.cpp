// The result cache and --stats as a user meets them: where the cache goes by default (never inside
// the scanned folder, off under CI), that a warm re-scan hits, and that a rule change misses.
#include <catch2/catch.hpp>
#include <filesystem>

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
