// Tests for symlinks during discovery: loops, duplicates, dangling links, linked files and folders.
#include <algorithm>
#include <catch2/catch.hpp>

#include "tr2audit/discover/discover.hpp"
#include "unit/discover/temp_tree.hpp"

using tr2audit::Problem;
using tr2audit::ProblemKind;
using tr2audit::discover::DiscoveryOptions;
using tr2audit::discover::DiscoveryResult;
using tr2audit::test::problem_for;
using tr2audit::test::rel_paths;
using tr2audit::test::TempTree;

TEST_CASE("discover::discover follows symlinks once and reports loops and dangling links", "[discover]") {
  TempTree outside;
  outside.write("shared/utils.py", "import torch\n");
  TempTree tree;
  tree.write("a/model.py", "x = 1\n");
  tree.write("a/b/layers.py", "x = 1\n");
  tree.write("real.py", "x = 1\n");
  tree.symlink("..", "a/loop", true);          // a folder link to its parent
  tree.symlink("../../a", "a/b/up", true);     // to an ancestor, two levels up
  tree.symlink("a", "dup", true);              // the same folder reached through another path
  tree.symlink("real.py", "alias.py", false);  // a linked file: scanned under the link's path
  tree.symlink("missing.py", "dangling.py", false);
  tree.symlink("no/such/dir", "gone", true);                   // a dangling folder link
  tree.symlink("missing.bin", "blob.bin", false);              // not a scanned kind: silent
  tree.symlink(outside.path("shared").string(), "ext", true);  // outside the root: not followed

  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(rel_paths(result) == std::vector<std::string>{"a/b/layers.py", "a/model.py", "alias.py", "real.py"});

  const Problem* loop = problem_for(result, "a/loop");
  REQUIRE(loop != nullptr);
  CHECK(loop->kind == ProblemKind::symlink_loop);
  CHECK_THAT(loop->message, Catch::Contains("'..'") && Catch::Contains("ancestor folder '.'"));

  const Problem* up = problem_for(result, "a/b/up");
  REQUIRE(up != nullptr);
  CHECK(up->kind == ProblemKind::symlink_loop);
  CHECK_THAT(up->message, Catch::Contains("'../../a'") && Catch::Contains("ancestor folder 'a'"));

  const Problem* dup = problem_for(result, "dup");
  REQUIRE(dup != nullptr);
  CHECK(dup->kind == ProblemKind::symlink_loop);
  CHECK_THAT(dup->message, Catch::Contains("already scanned as 'a'"));

  const Problem* dangling = problem_for(result, "dangling.py");
  REQUIRE(dangling != nullptr);
  CHECK(dangling->kind == ProblemKind::unreadable);
  CHECK_THAT(dangling->message, Catch::Contains("dangling symlink to 'missing.py'"));

  const Problem* gone = problem_for(result, "gone");
  REQUIRE(gone != nullptr);
  CHECK(gone->kind == ProblemKind::unreadable);

  const Problem* ext = problem_for(result, "ext");
  REQUIRE(ext != nullptr);
  CHECK(ext->kind == ProblemKind::outside_root);

  CHECK(problem_for(result, "blob.bin") == nullptr);
  CHECK(result.problems.size() == 6);
  CHECK(result.skipped == 1);  // dangling.py; loops are folders, not files
  CHECK(std::is_sorted(result.problems.begin(), result.problems.end(),
                       [](const Problem& x, const Problem& y) { return x.path < y.path; }));
}

TEST_CASE("discover::discover reports a self-referencing symlink as a loop", "[discover]") {
  TempTree tree;
  tree.write("ok.py", "x = 1\n");
  tree.symlink("self", "self", false);
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(rel_paths(result) == std::vector<std::string>{"ok.py"});
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems.front().path == "self");
  CHECK(result.problems.front().kind == ProblemKind::symlink_loop);
}

TEST_CASE("discover::discover picks the same path for a folder linked twice, in any order", "[discover]") {
  TempTree outside;
  outside.write("lib/core.py", "x = 1\n");
  TempTree tree;
  tree.symlink(outside.path("lib").string(), "z_link", true);
  tree.symlink(outside.path("lib").string(), "a_link", true);
  DiscoveryOptions options;
  options.follow_external_symlinks = true;
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), options);
  CHECK(rel_paths(result) == std::vector<std::string>{"a_link/core.py"});
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems.front().path == "z_link");
  CHECK_THAT(result.problems.front().message, Catch::Contains("already scanned as 'a_link'"));
}

TEST_CASE("discover::discover applies ignore rules to symlinks by their own path", "[discover]") {
  TempTree outside;
  outside.write("lib/core.py", "x = 1\n");
  TempTree tree;
  tree.write(".gitignore", "vendored/\nlinked_*.py\n");
  tree.write("real.py", "x = 1\n");
  tree.symlink(outside.path("lib").string(), "vendored", true);
  tree.symlink("real.py", "linked_real.py", false);
  tree.symlink("missing.py", "linked_missing.py", false);
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(rel_paths(result) == std::vector<std::string>{"real.py"});
  CHECK(result.problems.empty());
}

TEST_CASE("discover::discover never reads through a symlink that leaves the root", "[discover][hostile]") {
  TempTree outside;
  outside.write("secrets/token.py", "TOKEN = 'do-not-read'\n");
  outside.write("single.py", "TOKEN = 'do-not-read'\n");
  TempTree tree;
  tree.write("pkg/model.py", "x = 1\n");
  tree.symlink(outside.path("secrets").string(), "outside", true);
  tree.symlink(outside.path("single.py").string(), "pkg/single.py", false);
  tree.symlink("pkg", "inside", true);  // inside the root: followed once
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(rel_paths(result) == std::vector<std::string>{"pkg/model.py"});
  const Problem* dir = problem_for(result, "outside");
  const Problem* file = problem_for(result, "pkg/single.py");
  REQUIRE(dir != nullptr);
  REQUIRE(file != nullptr);
  CHECK(dir->kind == ProblemKind::outside_root);
  CHECK(file->kind == ProblemKind::outside_root);
  CHECK_THAT(file->message, Catch::Contains("a file outside the scan root"));
  CHECK(result.skipped == 1);
  const Problem* inside = problem_for(result, "inside");
  REQUIRE(inside != nullptr);  // the folder was already scanned as pkg
  CHECK(inside->kind == ProblemKind::symlink_loop);

  DiscoveryOptions opt_in;
  opt_in.follow_external_symlinks = true;
  const DiscoveryResult followed = tr2audit::discover::discover(tree.root(), opt_in);
  CHECK(rel_paths(followed) == std::vector<std::string>{"outside/token.py", "pkg/model.py", "pkg/single.py"});
}
