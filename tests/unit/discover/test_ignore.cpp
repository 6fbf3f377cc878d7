// Tests for .gitignore handling and --exclude during discovery, and for path_matches_glob.
#include <catch2/catch.hpp>
#include <chrono>

#include "tr2audit/discover/discover.hpp"
#include "unit/discover/temp_tree.hpp"

using tr2audit::discover::DiscoveryOptions;
using tr2audit::discover::path_matches_glob;
using tr2audit::test::rel_paths;
using tr2audit::test::TempTree;

namespace {

void build_ignored_repo(const TempTree& tree) {
  tree.write(".gitignore",
             "# generated code\n"
             "\n"
             "/scratch.py\n"
             "generated/\n"
             "*_pb2.py\n"
             "!keep_pb2.py\n"
             "wandb/**\n"
             "checkpoints/*/export.py   \n");
  tree.write("sub/.gitignore", "local_*.py\n!local_keep.py\n/only_here.py\n");
  tree.write("scratch.py", "x = 1\n");          // anchored at the root: ignored
  tree.write("sub/scratch.py", "x = 1\n");      // the anchored pattern does not reach here
  tree.write("generated/a.py", "x = 1\n");      // directory pattern
  tree.write("pkg/generated/b.py", "x = 1\n");  // ... at any depth
  tree.write("generated.py", "x = 1\n");        // a file, not a directory: kept
  tree.write("proto/model_pb2.py", "x = 1\n");  // ignored anywhere
  tree.write("proto/keep_pb2.py", "x = 1\n");   // re-included by negation
  tree.write("wandb/run-1/files/code.py", "x = 1\n");
  tree.write("checkpoints/step100/export.py", "x = 1\n");
  tree.write("checkpoints/export.py", "x = 1\n");  // '*' needs one folder in between: kept
  tree.write("sub/local_a.py", "x = 1\n");         // sub/.gitignore
  tree.write("sub/deeper/local_b.py", "x = 1\n");  // unanchored: any depth under sub/
  tree.write("sub/local_keep.py", "x = 1\n");      // negated in sub/.gitignore
  tree.write("local_root.py", "x = 1\n");          // sub/.gitignore does not apply outside sub/
  tree.write("sub/only_here.py", "x = 1\n");       // anchored to sub/
  tree.write("sub/deeper/only_here.py", "x = 1\n");
}

}  // namespace

TEST_CASE("discover::discover honours nested .gitignore files with negation and anchors", "[discover]") {
  TempTree tree;
  build_ignored_repo(tree);
  const std::vector<std::string> expected{
      "checkpoints/export.py",   "generated.py",      "local_root.py",  "proto/keep_pb2.py",
      "sub/deeper/only_here.py", "sub/local_keep.py", "sub/scratch.py",
  };
  CHECK(rel_paths(tr2audit::discover::discover(tree.root(), DiscoveryOptions{})) == expected);

  DiscoveryOptions no_gitignore;
  no_gitignore.respect_gitignore = false;
  CHECK(rel_paths(tr2audit::discover::discover(tree.root(), no_gitignore)).size() == 16);
}

TEST_CASE("discover::discover: a deeper .gitignore overrides its parent's", "[discover]") {
  TempTree tree;
  tree.write(".gitignore", "*.ipynb\n");
  tree.write("examples/.gitignore", "!demo.ipynb\n");
  tree.write("examples/demo.ipynb", "{}");
  tree.write("examples/other.ipynb", "{}");
  tree.write("scratch.ipynb", "{}");
  CHECK(rel_paths(tr2audit::discover::discover(tree.root(), DiscoveryOptions{})) ==
        std::vector<std::string>{"examples/demo.ipynb"});
}

TEST_CASE("discover::discover applies --exclude globs relative to the root", "[discover]") {
  TempTree tree;
  tree.write("train.py", "x = 1\n");
  tree.write("third_party/cutlass/python/gen.py", "x = 1\n");
  tree.write("src/third_party/vendored.py", "x = 1\n");
  tree.write("src/legacy/old_trainer.py", "x = 1\n");
  tree.write("src/models/legacy/old_model.py", "x = 1\n");
  tree.write("src/models/legacy/README.md", "x\n");
  tree.write("src/models/llama.py", "x = 1\n");
  tree.write("docs/conf.py", "x = 1\n");
  tree.write(".gitignore", "!docs/\n");

  DiscoveryOptions options;
  options.excludes = {"/third_party/", "**/legacy/*.py", "docs"};
  CHECK(rel_paths(tr2audit::discover::discover(tree.root(), options)) ==
        std::vector<std::string>{"src/models/llama.py", "src/third_party/vendored.py", "train.py"});

  options.respect_gitignore = false;  // excludes still apply without .gitignore
  CHECK(rel_paths(tr2audit::discover::discover(tree.root(), options)).size() == 3);
}

TEST_CASE("discover::path_matches_glob implements gitignore globs", "[discover]") {
  // Unanchored patterns match at any depth; '*' stays within a segment.
  CHECK(path_matches_glob("*.py", "train.py", false));
  CHECK(path_matches_glob("*.py", "a/b/train.py", false));
  CHECK_FALSE(path_matches_glob("*.py", "train.pyc", false));
  CHECK_FALSE(path_matches_glob("a*.py", "a/b.py", false));
  // A slash anchors the pattern to the root.
  CHECK(path_matches_glob("/build", "build", true));
  CHECK_FALSE(path_matches_glob("/build", "src/build", true));
  CHECK(path_matches_glob("src/gen", "src/gen", true));
  CHECK_FALSE(path_matches_glob("src/gen", "x/src/gen", true));
  // A trailing slash matches folders only, and a file inside a matched folder matches too.
  CHECK(path_matches_glob("build/", "build", true));
  CHECK_FALSE(path_matches_glob("build/", "build", false));
  CHECK(path_matches_glob("build/", "pkg/build/x.py", false));
  // '**' spans folders.
  CHECK(path_matches_glob("a/**/b.py", "a/b.py", false));
  CHECK(path_matches_glob("a/**/b.py", "a/x/y/b.py", false));
  CHECK_FALSE(path_matches_glob("a/**/b.py", "c/a/x/b.py", false));
  CHECK(path_matches_glob("**/cuda/*.cu", "csrc/kernels/cuda/attn.cu", false));
  CHECK(path_matches_glob("logs/**", "logs/run1/x.py", false));
  CHECK_FALSE(path_matches_glob("logs/**", "logs", true));
  // '?', classes, escapes.
  CHECK(path_matches_glob("model?.py", "model1.py", false));
  CHECK_FALSE(path_matches_glob("model?.py", "model10.py", false));
  CHECK(path_matches_glob("caf?.py", "café.py", false));
  CHECK(path_matches_glob("[abc]_*.py", "b_train.py", false));
  CHECK_FALSE(path_matches_glob("[abc]_*.py", "d_train.py", false));
  CHECK(path_matches_glob("[!abc]_*.py", "d_train.py", false));
  CHECK(path_matches_glob("v[0-9].py", "v7.py", false));
  CHECK_FALSE(path_matches_glob("v[0-9].py", "vx.py", false));
  CHECK(path_matches_glob("\\#notes.py", "#notes.py", false));
  CHECK(path_matches_glob("[unclosed.py", "[unclosed.py", false));
  // Comments and blank patterns match nothing; '!' is ignored here (the positive part matches).
  CHECK_FALSE(path_matches_glob("# *.py", "# x.py", false));
  CHECK_FALSE(path_matches_glob("", "x.py", false));
  CHECK(path_matches_glob("!keep.py", "keep.py", false));
}

TEST_CASE("discover::discover scales linearly with many files and patterns", "[discover][slow]") {
  TempTree tree;
  std::string gitignore;
  for (int i = 0; i < 60; ++i)
    gitignore += "pattern_" + std::to_string(i) + "_*.py\n**/gen" + std::to_string(i) + "/\n";
  gitignore += "*_ignored.py\n";
  tree.write(".gitignore", gitignore);
  for (int dir = 0; dir < 40; ++dir) {
    for (int file = 0; file < 50; ++file) {
      const std::string rel = "pkg" + std::to_string(dir) + "/mod" + std::to_string(file);
      tree.write(rel + (file % 10 == 0 ? "_ignored.py" : ".py"), "x = 1\n");
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const auto result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(result.files.size() == 40 * 45);
  // 2,000 files x 121 patterns: generous bound that a quadratic walk or per-match compile would miss.
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() < 3000);
}
