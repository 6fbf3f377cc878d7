// Tests for discover::discover: file kinds, skipped folders, order, size limit, single-file roots.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "discover/classify.hpp"
#include "tr2audit/discover/discover.hpp"
#include "unit/discover/temp_tree.hpp"

using tr2audit::Problem;
using tr2audit::ProblemKind;
using tr2audit::discover::DiscoveryOptions;
using tr2audit::discover::DiscoveryResult;
using tr2audit::discover::FileKind;
using tr2audit::discover::SourceFile;
using tr2audit::test::TempTree;

namespace {

const SourceFile* file_for(const DiscoveryResult& result, std::string_view rel) {
  for (const SourceFile& file : result.files) {
    if (file.rel_path == rel) return &file;
  }
  return nullptr;
}

/// A realistic training repo with everything discovery must leave out around it.
void build_repo(const TempTree& tree) {
  tree.write("train.py", "import torch\n");
  tree.write("model/attention.py", "import flash_attn\n");
  tree.write("model/kernels/fused.cu", "__global__ void k() {}\n");
  tree.write("model/kernels/fused.cuh", "#pragma once\n");
  tree.write("typings/flash_attn.pyi", "def f() -> None: ...\n");
  tree.write("notebooks/explore.ipynb", R"({"cells": [], "nbformat": 4})");
  tree.write("requirements.txt", "torch\n");
  tree.write("requirements-dev.txt", "pytest\n");
  tree.write("requirements/gpu.txt", "flash-attn\n");
  tree.write("bench/efficiency_requirements.txt", "auto-gptq\n");
  tree.write("notes.txt", "not a requirements file\n");  // a plain .txt: left out
  tree.write("pyproject.toml", "[project]\nname = \"x\"\n");
  tree.write("setup.cfg", "[metadata]\nname = x\n");
  tree.write("docker/Dockerfile", "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n");
  tree.write("configs/train.yaml", "max_seq_len: 2048\n");
  tree.write("run.sh", "python train.py --max_seq_len 2048\n");
  tree.write("data/alpaca.json", std::string(300 * 1024, ' '));  // data, not settings: left out, no problem
  tree.write("tests/fixtures/expected.json", "{}");              // test data: left out
  tree.write("README.md", "# readme\n");
  tree.write("data/train.csv", "a,b\n");
  tree.write("tests/test_model.py", "def test_x(): pass\n");
  tree.write("model/attention_test.py", "def test_y(): pass\n");
  tree.write("conftest.py", "import pytest\n");
  tree.write(".github/scripts/bump_version.py", "print('ci')\n");
  // A source package that happens to be called build/, and one called env/ without an interpreter.
  tree.write("build/__init__.py", "from .builder import Builder\n");
  tree.write("env/__init__.py", "ENV = {}\n");
  // Folders to skip.
  tree.write(".git/hooks/post_checkout.py", "x = 1\n");
  tree.write("model/__pycache__/attention.cpython-311.py", "x = 1\n");
  tree.write("web/node_modules/pkg/gen.py", "x = 1\n");
  tree.write("vendor/lib/python3.10/site-packages/torch/__init__.py", "x = 1\n");
  tree.write("vendor/dist-packages/apex/__init__.py", "x = 1\n");
  tree.write(".venv/bin/python3", "#!binary\n");
  tree.write(".venv/lib/python3.11/site-packages/torch/cuda.py", "x = 1\n");
  tree.write("venv/bin/python", "#!binary\n");
  tree.write("venv/lib/helper.py", "x = 1\n");
  tree.write("tools/myenv/pyvenv.cfg", "home = /usr/bin\n");
  tree.write("tools/myenv/lib/python3.10/site-packages/x.py", "x = 1\n");
  tree.write("csrc/build/lib.linux-x86_64-cpython-310/ext/ops.py", "x = 1\n");
  tree.write("csrc/build/temp.linux-x86_64-cpython-310/build.ninja", "rule cc\n");
  tree.write("dist/pkg-0.1-py3-none-any.whl", "PK");
  tree.write("dist/stale.py", "x = 1\n");
  tree.write("cmake-out/build/CMakeCache.txt", "CMAKE_BUILD_TYPE:STRING=Release\n");
  tree.write("cmake-out/build/gen/config.py", "x = 1\n");
  tree.write("pkg.egg-info/top_level.py", "x = 1\n");
  tree.write(".tox/py311/x.py", "x = 1\n");
  tree.write(".mypy_cache/3.11/x.py", "x = 1\n");
  tree.write("notebooks/.ipynb_checkpoints/explore-checkpoint.ipynb", "{}");
}

}  // namespace

TEST_CASE("discover::discover classifies files and skips environments and build output", "[discover]") {
  TempTree tree;
  build_repo(tree);
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});

  const std::vector<std::string> expected{
      ".github/scripts/bump_version.py",
      "bench/efficiency_requirements.txt",
      "build/__init__.py",
      "configs/train.yaml",
      "conftest.py",
      "docker/Dockerfile",
      "env/__init__.py",
      "model/attention.py",
      "model/attention_test.py",
      "model/kernels/fused.cu",
      "model/kernels/fused.cuh",
      "notebooks/explore.ipynb",
      "pyproject.toml",
      "requirements-dev.txt",
      "requirements.txt",
      "requirements/gpu.txt",
      "run.sh",
      "setup.cfg",
      "tests/test_model.py",
      "train.py",
      "typings/flash_attn.pyi",
  };
  CHECK(tr2audit::test::rel_paths(result) == expected);
  CHECK(result.problems.empty());
  CHECK(result.skipped == 0);

  REQUIRE(file_for(result, "model/kernels/fused.cuh") != nullptr);
  CHECK(file_for(result, "model/kernels/fused.cuh")->kind == FileKind::cuda_source);
  CHECK(file_for(result, "typings/flash_attn.pyi")->kind == FileKind::python_stub);
  CHECK(file_for(result, "notebooks/explore.ipynb")->kind == FileKind::notebook);
  CHECK(file_for(result, "requirements/gpu.txt")->kind == FileKind::requirements);
  CHECK(file_for(result, "requirements-dev.txt")->kind == FileKind::requirements);
  CHECK(file_for(result, "pyproject.toml")->kind == FileKind::pyproject);
  CHECK(file_for(result, "setup.cfg")->kind == FileKind::setup_cfg);
  CHECK(file_for(result, "docker/Dockerfile")->kind == FileKind::dockerfile);
  CHECK(file_for(result, "configs/train.yaml")->kind == FileKind::config);
  CHECK(file_for(result, "run.sh")->kind == FileKind::config);
  CHECK(file_for(result, "train.py")->kind == FileKind::python);
  CHECK(file_for(result, "train.py")->size == 13);
  CHECK(file_for(result, "train.py")->abs_path == tree.path("train.py"));

  CHECK(file_for(result, "tests/test_model.py")->is_test);
  CHECK(file_for(result, "model/attention_test.py")->is_test);
  CHECK(file_for(result, "conftest.py")->is_test);
  CHECK_FALSE(file_for(result, "train.py")->is_test);
  CHECK_FALSE(file_for(result, "model/attention.py")->is_test);
}

TEST_CASE("discover::classify_file tells a conda environment from a config", "[discover]") {
  using tr2audit::discover::classify_file;
  CHECK(classify_file("environment.yml") == FileKind::conda_env);
  CHECK(classify_file("envs/environment-gpu.yaml") == FileKind::conda_env);
  CHECK(classify_file("conda_env.yml") == FileKind::conda_env);
  CHECK(classify_file("configs/env.yaml") == FileKind::config);
  CHECK(classify_file("configs/train_environment.yaml") == FileKind::config);
  CHECK(classify_file("environment.json") == FileKind::config);
}

TEST_CASE("discover::to_string names every file kind", "[discover]") {
  using tr2audit::discover::to_string;
  CHECK(to_string(FileKind::python) == "python");
  CHECK(to_string(FileKind::python_stub) == "python-stub");
  CHECK(to_string(FileKind::notebook) == "notebook");
  CHECK(to_string(FileKind::cuda_source) == "cuda-source");
  CHECK(to_string(FileKind::requirements) == "requirements");
  CHECK(to_string(FileKind::pyproject) == "pyproject");
  CHECK(to_string(FileKind::setup_cfg) == "setup-cfg");
  CHECK(to_string(FileKind::dockerfile) == "dockerfile");
  CHECK(to_string(FileKind::conda_env) == "conda-env");
  CHECK(to_string(FileKind::config) == "config");
}

TEST_CASE("discover::discover orders files by path whatever the creation order", "[discover]") {
  std::vector<std::string> names{"b.py",         "a.py", "B.py", "a/z.py", "a/b/c.py", "a-b.py", "a_b.py",  "a.b/x.py",
                                 "zz/test_x.py", "Z.py", "ä.py", "a/a.py", "aa/a.py",  "a0.py",  "a/b.pyi", "_x.py"};
  std::vector<std::string> first_order;
  for (unsigned seed : {1u, 7u, 42u}) {
    TempTree tree;
    std::mt19937 random(seed);
    std::shuffle(names.begin(), names.end(), random);
    for (const std::string& name : names) tree.write(name, "x = 1\n");
    const std::vector<std::string> found =
        tr2audit::test::rel_paths(tr2audit::discover::discover(tree.root(), DiscoveryOptions{}));
    REQUIRE(found.size() == names.size());
    CHECK(std::is_sorted(found.begin(), found.end()));
    if (first_order.empty()) first_order = found;
    CHECK(found == first_order);
  }
  // Plain byte order: upper case before lower case, '-' (0x2D) before '.' before '/' before '_', UTF-8 last.
  CHECK(first_order.front() == "B.py");
  CHECK(first_order.back() == "ä.py");
  const auto position = [&](std::string_view rel) {
    return std::find(first_order.begin(), first_order.end(), rel) - first_order.begin();
  };
  CHECK(position("a-b.py") < position("a.b/x.py"));
  CHECK(position("a.py") < position("a/a.py"));
  CHECK(position("a/z.py") < position("a0.py"));
}

TEST_CASE("discover::discover reports files over the size limit as too_large", "[discover]") {
  TempTree tree;
  tree.write("small.py", "x = 1\n");
  tree.write("weights_table.py", std::string(6u * 1024 * 1024, '#'));
  tree.write("big.csv", std::string(6u * 1024 * 1024, 'x'));  // not a scanned kind: silently ignored

  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  CHECK(tr2audit::test::rel_paths(result) == std::vector<std::string>{"small.py"});
  CHECK(result.skipped == 1);
  REQUIRE(result.problems.size() == 1);
  const Problem& problem = result.problems.front();
  CHECK(problem.kind == ProblemKind::too_large);
  CHECK(problem.path == "weights_table.py");
  CHECK(problem.message == "file is 6.0 MiB, over the 5.0 MiB limit (--max-file-size)");

  DiscoveryOptions larger;
  larger.max_file_size = 8u * 1024 * 1024;
  const DiscoveryResult relaxed = tr2audit::discover::discover(tree.root(), larger);
  CHECK(relaxed.files.size() == 2);
  CHECK(relaxed.problems.empty());
}

TEST_CASE("discover::discover scans a single file root under its file name", "[discover]") {
  TempTree tree;
  tree.write("pkg/tests/test_train.py", "import torch\n");
  tree.write("pkg/notes.md", "# notes\n");
  tree.write("pkg/huge.py", std::string(2048, '#'));

  const DiscoveryResult single = tr2audit::discover::discover(tree.path("pkg/tests/test_train.py"), DiscoveryOptions{});
  REQUIRE(single.files.size() == 1);
  CHECK(single.files.front().rel_path == "test_train.py");
  CHECK(single.files.front().abs_path == tree.path("pkg/tests/test_train.py"));
  CHECK(single.files.front().is_test);
  CHECK(single.problems.empty());

  CHECK(tr2audit::discover::discover(tree.path("pkg/notes.md"), DiscoveryOptions{}).files.empty());

  DiscoveryOptions tiny;
  tiny.max_file_size = 1024;
  const DiscoveryResult too_large = tr2audit::discover::discover(tree.path("pkg/huge.py"), tiny);
  CHECK(too_large.files.empty());
  REQUIRE(too_large.problems.size() == 1);
  CHECK(too_large.problems.front().message == "file is 2.0 KiB, over the 1.0 KiB limit (--max-file-size)");
}

TEST_CASE("discover::discover reports a missing root as unreadable", "[discover]") {
  TempTree tree;
  const DiscoveryResult result = tr2audit::discover::discover(tree.path("does-not-exist"), DiscoveryOptions{});
  CHECK(result.files.empty());
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems.front().kind == ProblemKind::unreadable);
  CHECK_THAT(result.problems.front().message, Catch::Contains("scan root"));
}

TEST_CASE("discover::discover reports a folder it cannot list and carries on", "[discover]") {
  TempTree tree;
  tree.write("locked/secret.py", "x = 1\n");
  tree.write("open.py", "x = 1\n");
  std::filesystem::permissions(tree.path("locked"), std::filesystem::perms::none);
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  std::filesystem::permissions(tree.path("locked"), std::filesystem::perms::owner_all);
  CHECK(tr2audit::discover::discover(tree.root(), DiscoveryOptions{}).files.size() == 2);
  if (::geteuid() == 0) {
    WARN("running as root: permissions do not stop root from listing a folder; unlistable-folder check skipped");
    return;
  }
  CHECK(tr2audit::test::rel_paths(result) == std::vector<std::string>{"open.py"});
  const Problem* problem = tr2audit::test::problem_for(result, "locked");
  REQUIRE(problem != nullptr);
  CHECK(problem->kind == ProblemKind::unreadable);
  CHECK_THAT(problem->message, Catch::Contains("Permission denied"));
}

TEST_CASE("discover::discover names the CPU implementation beside a CUDA source", "[discover]") {
  TempTree tree;
  tree.write("csrc/box_iou/box_iou_rotated_cuda.cu", "__global__ void k() {}\n");
  tree.write("csrc/box_iou/box_iou_rotated_cpu.cpp", "void f() {}\n");
  tree.write("csrc/ROIAlign/ROIAlign_CUDA.cu", "__global__ void k() {}\n");
  tree.write("csrc/ROIAlign/ROIAlign_CPU.cc", "void f() {}\n");
  tree.write("csrc/scan/scan_cuda_kernel.cu", "__global__ void k() {}\n");
  tree.write("csrc/scan/scan_cpu.cpp", "void f() {}\n");
  tree.write("csrc/deform/deform_conv_cuda.cu", "__global__ void k() {}\n");  // CUDA only
  tree.write("csrc/deform/deform_conv.cpp", "void f() {}\n");                 // the binding, not a CPU kernel
  tree.write("csrc/fused.cu", "__global__ void k() {}\n");                    // no `cuda` in the name
  const DiscoveryResult result = tr2audit::discover::discover(tree.root(), DiscoveryOptions{});
  const auto twin = [&](std::string_view rel) {
    const SourceFile* file = file_for(result, rel);
    REQUIRE(file != nullptr);
    return file->cpu_twin;
  };
  CHECK(twin("csrc/box_iou/box_iou_rotated_cuda.cu") == "box_iou_rotated_cpu.cpp");
  CHECK(twin("csrc/ROIAlign/ROIAlign_CUDA.cu") == "ROIAlign_CPU.cc");
  CHECK(twin("csrc/scan/scan_cuda_kernel.cu") == "scan_cpu.cpp");
  CHECK(twin("csrc/deform/deform_conv_cuda.cu").empty());
  CHECK(twin("csrc/fused.cu").empty());
}
