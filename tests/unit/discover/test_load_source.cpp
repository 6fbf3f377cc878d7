// Tests for discover::load_source: binary, non-UTF-8, BOM, line ends, size and unreadable files.
#include <catch2/catch.hpp>

#include "tr2audit/discover/discover.hpp"
#include "unit/discover/temp_tree.hpp"

using tr2audit::ProblemKind;
using tr2audit::discover::DiscoveryOptions;
using tr2audit::discover::FileKind;
using tr2audit::discover::load_source;
using tr2audit::discover::LoadResult;
using tr2audit::discover::SourceFile;
using tr2audit::test::TempTree;

namespace {

constexpr std::uint64_t k_limit = 5ull * 1024 * 1024;

SourceFile source_file(const TempTree& tree, std::string_view rel, FileKind kind = FileKind::python) {
  SourceFile file;
  file.rel_path = std::string(rel);
  file.abs_path = tree.path(rel);
  file.kind = kind;
  return file;
}

LoadResult load(const TempTree& tree, std::string_view rel, std::string_view bytes, std::uint64_t limit = k_limit) {
  tree.write(rel, bytes);
  return load_source(source_file(tree, rel), limit);
}

}  // namespace

TEST_CASE("discover::load_source returns the text of a clean file", "[discover]") {
  TempTree tree;
  const LoadResult result = load(tree, "train.py", "import torch\nx = torch.ones(2)  # café\n");
  REQUIRE(result.ok);
  CHECK(result.source.text == "import torch\nx = torch.ones(2)  # café\n");
  CHECK(result.source.cell_first_lines.empty());
  CHECK(result.source.map_line(2).cell == 0);
  CHECK(result.source.map_line(2).line == 2);
}

TEST_CASE("discover::load_source rejects binary files with the NUL offset", "[discover]") {
  TempTree tree;
  std::string bytes = "import torch\n";
  bytes.push_back('\0');
  bytes += "more";
  const LoadResult result = load(tree, "weird.py", bytes);
  CHECK_FALSE(result.ok);
  CHECK(result.problem.kind == ProblemKind::binary);
  CHECK(result.problem.path == "weird.py");
  CHECK(result.problem.message == "binary file (NUL byte at offset 13)");

  // A NUL far past the first 8 KiB is found too.
  std::string late(20000, 'x');
  late[15000] = '\0';
  const LoadResult far = load(tree, "late.py", late);
  CHECK(far.problem.kind == ProblemKind::binary);
  CHECK(far.problem.message == "binary file (NUL byte at offset 15000)");

  const LoadResult utf16 = load(tree, "utf16.py", std::string("\xFF\xFEi\0m\0", 6));
  CHECK(utf16.problem.kind == ProblemKind::binary);
  CHECK_THAT(utf16.problem.message, Catch::Contains("UTF-16"));
}

TEST_CASE("discover::load_source rejects Latin-1 text with offset and line", "[discover]") {
  TempTree tree;
  const LoadResult result = load(tree, "latin1.py", "x = 1\ny = 'caf\xE9'\n");
  CHECK_FALSE(result.ok);
  CHECK(result.problem.kind == ProblemKind::not_utf8);
  CHECK(result.problem.message == "not valid UTF-8 at byte offset 14 (line 2)");
  CHECK(result.problem.line == 2);

  // Offsets count the file's bytes, the dropped BOM included.
  const LoadResult with_bom = load(tree, "bom_latin1.py", "\xEF\xBB\xBFx = '\xFF'\n");
  CHECK(with_bom.problem.kind == ProblemKind::not_utf8);
  CHECK(with_bom.problem.message == "not valid UTF-8 at byte offset 8 (line 1)");
}

TEST_CASE("discover::load_source drops a BOM and normalises line ends", "[discover]") {
  TempTree tree;
  const LoadResult bom = load(tree, "bom.py", "\xEF\xBB\xBFimport torch\n");
  REQUIRE(bom.ok);
  CHECK(bom.source.text == "import torch\n");

  const LoadResult mixed = load(tree, "mixed.py", "a = 1\r\nb = 2\rc = 3\n\r\nd = 4");
  REQUIRE(mixed.ok);
  CHECK(mixed.source.text == "a = 1\nb = 2\nc = 3\n\nd = 4");
}

TEST_CASE("discover::load_source re-checks the size limit", "[discover]") {
  TempTree tree;
  const LoadResult result = load(tree, "grown.py", std::string(4096, '#'), 1024);
  CHECK_FALSE(result.ok);
  CHECK(result.problem.kind == ProblemKind::too_large);
  CHECK(result.problem.message == "file is 4.0 KiB, over the 1.0 KiB limit (--max-file-size)");
  CHECK(load(tree, "exact.py", std::string(1024, '#'), 1024).ok);
}

TEST_CASE("discover::load_source reports files it cannot open", "[discover]") {
  TempTree tree;
  tree.symlink("vanished.py", "broken.py", false);
  const LoadResult result = load_source(source_file(tree, "broken.py"), k_limit);
  CHECK_FALSE(result.ok);
  CHECK(result.problem.kind == ProblemKind::unreadable);
  CHECK(result.problem.path == "broken.py");
  CHECK_THAT(result.problem.message, Catch::StartsWith("cannot open file: ") && Catch::Contains("No such file"));

  // The same dangling link found by discovery is an unreadable problem there too, not a file.
  const auto discovered = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(discovered.files.empty());
  REQUIRE(discovered.problems.size() == 1);
  CHECK(discovered.problems.front().kind == ProblemKind::unreadable);
}

TEST_CASE("discover::load_source converts notebooks, including CRLF JSON", "[discover]") {
  TempTree tree;
  tree.write("nb.ipynb",
             "{\r\n \"cells\": [\r\n  {\"cell_type\": \"code\", \"source\": [\"import torch\\r\\n\", \"x = 1\"]}\r\n"
             " ],\r\n \"nbformat\": 4\r\n}\r\n");
  const LoadResult result = load_source(source_file(tree, "nb.ipynb", FileKind::notebook), k_limit);
  REQUIRE(result.ok);
  CHECK(result.source.text == "import torch\nx = 1\n");
  CHECK(result.source.cell_numbers == std::vector<std::uint32_t>{1});

  tree.write("bad.ipynb", "{\r\n \"cells\": [\r\n  {\"cell_type\": \"code\",, }\r\n ]\r\n}\r\n");
  const LoadResult bad = load_source(source_file(tree, "bad.ipynb", FileKind::notebook), k_limit);
  CHECK_FALSE(bad.ok);
  CHECK(bad.problem.kind == ProblemKind::invalid_notebook);
  CHECK(bad.problem.line == 3);
}
