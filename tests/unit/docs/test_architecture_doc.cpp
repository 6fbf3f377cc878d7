// docs/architecture.md describes the code as built: every source, header or test path it names exists,
// and the folder layout lists only files that exist (a renamed or deleted file fails here until the
// document follows). Paths of other projects cited as anchors (ccache's src/ccache/...) are not ours.
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path k_repo = TR2AUDIT_SOURCE_DIR;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/' || c == '.' || c == '-';
}

/// Every maximal run of path characters in text that ends in .cpp, .hpp or .def (no std::regex: GCC 12
/// warns inside <regex> at -O2, and CI builds with -Werror).
std::vector<std::string> source_tokens(const std::string& text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!name_char(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && name_char(text[j])) ++j;
    std::string token = text.substr(i, j - i);
    while (!token.empty() && (token.back() == '.' || token.back() == '-')) token.pop_back();
    for (const char* ext : {".cpp", ".hpp", ".def"}) {
      if (token.size() > 4 && token.compare(token.size() - 4, 4, ext) == 0) out.push_back(token);
    }
    i = j;
  }
  return out;
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
  std::size_t checked = 0;
  for (const std::string& p : source_tokens(doc)) {
    const bool ours = p.rfind("src/", 0) == 0 || p.rfind("include/", 0) == 0 || p.rfind("tests/", 0) == 0;
    if (!ours || p.rfind("src/ccache/", 0) == 0) continue;  // ccache's own source, cited as an anchor
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
  std::size_t checked = 0;
  for (const std::string& token : source_tokens(block)) {
    const std::string name = fs::path(token).filename().string();
    if (name.rfind("test_", 0) == 0 || token.find('/') != std::string::npos) continue;  // patterns, paths
    ++checked;
    INFO(name);
    CHECK(names.count(name) == 1);
  }
  CHECK(checked >= 50);
}
