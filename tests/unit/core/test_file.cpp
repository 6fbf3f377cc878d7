// Tests for core/file: atomic writes leave either the old file or the whole new one, never a part.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "support/run_binary.hpp"
#include "tr2audit/core/file.hpp"

using tr2audit::testing::slurp;
using tr2audit::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("core::write_file_atomically replaces the file whole and leaves no temp file", "[core][safety]") {
  TempDir dir;
  const fs::path file = dir.path() / "report.json";
  CHECK(tr2audit::write_file_atomically(file, "first").empty());
  CHECK(slurp(file) == "first");
  const std::string big(8 << 20, 'x');
  CHECK(tr2audit::write_file_atomically(file, big).empty());
  CHECK(slurp(file) == big);
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0044) != 0);  // readable like any file the user writes, not mkstemp's 0600
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("core::write_file_atomically reports a failure and keeps the old file", "[core][safety]") {
  TempDir dir;
  const fs::path file = dir.path() / "sub" / "report.json";
  CHECK_FALSE(tr2audit::write_file_atomically(file, "x").empty());  // no such folder
  CHECK_FALSE(fs::exists(file));
  fs::create_directories(dir.path() / "sub");
  CHECK(tr2audit::write_file_atomically(file, "old").empty());
  fs::create_directory(dir.path() / "sub" / "taken");
  CHECK_FALSE(tr2audit::write_file_atomically(dir.path() / "sub" / "taken", "new").empty());  // a folder is there
  CHECK(fs::is_directory(dir.path() / "sub" / "taken"));
  CHECK(slurp(file) == "old");
  CHECK(std::distance(fs::directory_iterator(dir.path() / "sub"), fs::directory_iterator()) == 2);
}
