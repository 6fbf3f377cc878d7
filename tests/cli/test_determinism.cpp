// Determinism: the same input gives byte-identical JSON and SARIF (apart from the timestamp and
// the duration) across --jobs, across runs, and across the order the filesystem lists files in.
#include <catch2/catch.hpp>
#include <string_view>

#include "support/run_binary.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::slurp;
using tr2audit::testing::TempDir;
namespace fs = std::filesystem;

namespace {

/// The example repo's files (rel path -> bytes), to be written in any order.
std::vector<std::pair<std::string, std::string>> example_files() {
  const fs::path root = fs::path(TR2AUDIT_SOURCE_DIR) / "examples" / "mixed-with-fallbacks";
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.emplace_back(fs::relative(entry.path(), root).string(), slurp(entry.path()));
  }
  std::sort(files.begin(), files.end());
  for (int i = 0; i < 40; ++i) {  // enough files that worker threads interleave
    files.emplace_back("gen/m" + std::to_string(i) + ".py",
                       "import torch\n\ndef f(x):\n    if x.sum() > 0:\n        return x.cuda().item()\n"
                       "    return torch.nonzero(x)\n");
  }
  return files;
}

void write_tree(const fs::path& root, std::vector<std::pair<std::string, std::string>> files, bool reversed) {
  fs::remove_all(root);
  fs::create_directories(root);
  if (reversed) std::reverse(files.begin(), files.end());
  for (const auto& [rel, bytes] : files) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::binary) << bytes;
  }
}

/// The text with the value of every timestamp and duration key replaced by 0.
std::string blank_volatile(std::string text) {
  for (const std::string_view key :
       {"\"started_at\": ", "\"duration_ms\": ", "\"startTimeUtc\": ", "\"endTimeUtc\": "}) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      const std::size_t value = at + key.size();
      const std::size_t end = text.find_first_of(",\n}", value);
      text.replace(value, end - value, "0");
    }
  }
  return text;
}

/// JSON + SARIF of one scan with timestamps and durations blanked.
std::string scan_reports(const fs::path& root, const std::string& jobs) {
  TempDir out;
  const auto json = out.path() / "r.json", sarif = out.path() / "r.sarif";
  const auto result = run_tr2audit("scan --jobs " + jobs + " -f json -o '" + json.string() + "' -f sarif -o '" +
                                   sarif.string() + "' '" + root.string() + "'");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return blank_volatile(slurp(json) + "\n----\n" + slurp(sarif));
}

}  // namespace

TEST_CASE("determinism: byte-identical reports across --jobs, runs and listing order", "[determinism]") {
  TempDir base;
  const fs::path root = base.path() / "repo";
  const auto files = example_files();
  write_tree(root, files, false);
  const std::string reference = scan_reports(root, "1");
  CHECK(reference.find("\"findings\": [") != std::string::npos);
  CHECK(scan_reports(root, "2") == reference);
  CHECK(scan_reports(root, "8") == reference);
  CHECK(scan_reports(root, "8") == reference);  // a second run
  write_tree(root, files, true);                // same path, files created (and listed) in reverse
  CHECK(scan_reports(root, "2") == reference);
  CHECK(scan_reports(root, "1") == reference);
}
