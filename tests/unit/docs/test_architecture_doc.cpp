// docs/architecture.md describes the code as built: every source, header or test path it names exists,
// and the folder layout lists only files that exist (a renamed or deleted file fails here until the
// document follows). Paths of other projects cited as anchors (ccache's src/ccache/...) are not ours.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Basenames of every file under src/ and include/ (the folder layout lists them by name).
std::set<std::string> source_names() {
  std::set<std::string> out;
  for (const char* top : {"src", "include"}) {
    for (const auto& e : fs::recursive_directory_iterator(k_repo / top)) {
      if (e.is_regular_file()) out.insert(e.path().filename().string());
    }
  }
  return out;
}

}  // namespace

TEST_CASE("docs/architecture.md names only paths that exist", "[docs]") {
  const std::string doc = read(k_repo / "docs" / "architecture.md");
  REQUIRE(!doc.empty());
  const std::regex path(R"(\b((?:src|include|tests)/[A-Za-z0-9_/.-]+\.(?:cpp|hpp|def)))");
  std::size_t checked = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), path); it != std::sregex_iterator(); ++it) {
    const std::string p = (*it)[1];
    if (p.rfind("src/ccache/", 0) == 0) continue;  // ccache's own source, cited as an anchor
    if (p.find('<') != std::string::npos) continue;
    ++checked;
    INFO(p);
    CHECK(fs::exists(k_repo / p));
  }
  CHECK(checked >= 10);
}

TEST_CASE("docs/architecture.md's folder layout lists only files that exist", "[docs]") {
  const std::string doc = read(k_repo / "docs" / "architecture.md");
  const auto start = doc.find("## 2. Folder layout");
  REQUIRE(start != std::string::npos);
  const auto open = doc.find("```\n", start);
  const auto close = doc.find("```\n", open + 4);
  REQUIRE(close != std::string::npos);
  const std::string block = doc.substr(open, close - open);
  const std::set<std::string> names = source_names();
  const std::regex file(R"(\b([A-Za-z0-9_]+\.(?:cpp|hpp|def))\b)");
  std::size_t checked = 0;
  for (auto it = std::sregex_iterator(block.begin(), block.end(), file); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    if (name.rfind("test_", 0) == 0) continue;  // the tests line is a pattern (test_<file>.cpp)
    ++checked;
    INFO(name);
    CHECK(names.count(name) == 1);
  }
  CHECK(checked >= 50);
}
