#include <catch2/catch.hpp>

#include "tr2audit/gate/diff.hpp"
#include "tr2audit/gate/git.hpp"

using namespace tr2audit::gate;

TEST_CASE("gate::parse_unified_diff collects new-side ranges, new files and renames", "[gate]") {
  const std::string diff =
      "diff --git a/train.py b/train.py\n"
      "index 1..2 100644\n"
      "--- a/train.py\n"
      "+++ b/train.py\n"
      "@@ -3,0 +4,2 @@ def main():\n"
      "+    a\n"
      "+    b\n"
      "@@ -10 +12 @@\n"
      "-x\n"
      "+y\n"
      "@@ -20,3 +23,0 @@\n"
      "diff --git a/new.py b/new.py\n"
      "new file mode 100644\n"
      "--- /dev/null\n"
      "+++ b/new.py\n"
      "@@ -0,0 +1,3 @@\n"
      "diff --git a/old.py b/gone.py\n"
      "deleted file mode 100644\n"
      "--- a/old.py\n"
      "+++ /dev/null\n"
      "@@ -1,4 +0,0 @@\n"
      "diff --git a/pkg/a.py b/pkg/b.py\n"
      "similarity index 90%\n"
      "rename from pkg/a.py\n"
      "rename to pkg/b.py\n"
      "--- a/pkg/a.py\n"
      "+++ b/pkg/b.py\n"
      "@@ -7 +7 @@\n"
      "diff --git \"a/sp ace.py\" \"b/sp ace.py\"\n"
      "--- \"a/sp ace.py\"\n"
      "+++ \"b/sp\\303\\251 ace.py\"\n"
      "@@ -1 +1 @@\n";
  const ChangedLines changed = parse_unified_diff(diff);
  CHECK(changed.contains("train.py", 4));
  CHECK(changed.contains("train.py", 5));
  CHECK_FALSE(changed.contains("train.py", 6));
  CHECK(changed.contains("train.py", 12));
  CHECK_FALSE(changed.contains("train.py", 23));
  CHECK(changed.contains("new.py", 3));
  CHECK_FALSE(changed.touches("old.py"));
  CHECK(changed.contains("pkg/b.py", 7));
  CHECK_FALSE(changed.touches("pkg/a.py"));
  CHECK(changed.contains("sp\xc3\xa9 ace.py", 1));
  CHECK(changed.file_count() == 4);
}

TEST_CASE("gate::ChangedLines merges adjacent ranges", "[gate]") {
  ChangedLines changed;
  changed.add("a.py", 8, 9);
  changed.add("a.py", 1, 2);
  changed.add("a.py", 3, 4);
  REQUIRE(changed.ranges().at("a.py").size() == 2);
  CHECK(changed.ranges().at("a.py")[0] == std::pair<std::uint32_t, std::uint32_t>{1, 4});
  CHECK_FALSE(changed.contains("a.py", 5));
  CHECK(changed.contains("a.py", 9));
}

TEST_CASE("gate::run_git disables hooks, fsmonitor and external diff", "[gate]") {
  const auto options = git_safety_options();
  const auto has = [&](const std::string& value) {
    return std::find(options.begin(), options.end(), value) != options.end();
  };
  CHECK(has("core.hooksPath=/dev/null"));
  CHECK(has("core.fsmonitor="));
  CHECK(has("diff.external="));
  const ProcessResult outside = run_git({"rev-parse", "--is-inside-work-tree"}, "/");
  CHECK(outside.exit_code != 0);
}
