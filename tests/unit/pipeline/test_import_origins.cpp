#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

facts::ImportOrigin origin_of(const program::Program& model, const std::string& target) {
  const auto& f = model.file(program::FileId{0});
  for (std::size_t i = 0; i < f.imports.size(); ++i) {
    if (f.imports[i].target.dotted() == target) return model.origin(program::FileId{0}, i);
  }
  FAIL("no import of " << target);
  return facts::ImportOrigin::external;
}

facts::FileFacts module_file(const std::string& path) {
  return facts_of("x = 1\n", path);
}

}  // namespace

TEST_CASE("program::Program tells local sources, compiled extensions and libraries apart", "[program]") {
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(
      "import torch\n"
      "from . import _C\n"
      "from .ops import attention\n"
      "from .utils import _private_helper\n"
      "from csrc_pkg import fused_layer_norm_cuda\n"
      "import csrc_pkg.missing_ext\n"
      "from flash_attn import flash_attn_func\n"
      "from csrc_pkg.memory import retry_if_cuda_oom\n",
      "csrc_pkg/model.py"));
  for (const char* path : {"csrc_pkg/__init__.py", "csrc_pkg/ops/__init__.py", "csrc_pkg/ops/attention.py",
                           "csrc_pkg/utils.py", "csrc_pkg/memory.py", "train.py"})
    files.push_back(module_file(path));
  const auto model = program::Program::build(std::move(files));
  CHECK(origin_of(model, "torch") == facts::ImportOrigin::external);
  CHECK(origin_of(model, "csrc_pkg._C") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(model, "csrc_pkg.ops.attention") == facts::ImportOrigin::local_source);
  CHECK(origin_of(model, "csrc_pkg.utils._private_helper") == facts::ImportOrigin::local_source);
  CHECK(origin_of(model, "csrc_pkg.fused_layer_norm_cuda") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(model, "csrc_pkg.missing_ext") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(model, "flash_attn.flash_attn_func") == facts::ImportOrigin::external);
  // A name that contains "cuda", imported from a plain Python module, is Python.
  CHECK(origin_of(model, "csrc_pkg.memory.retry_if_cuda_oom") == facts::ImportOrigin::local_source);
}
