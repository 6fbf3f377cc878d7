#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/pipeline/scan.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

facts::ImportOrigin origin_of(const facts::FileFacts& f, const std::string& target) {
  for (const auto& i : f.imports) {
    if (i.target.dotted() == target) return i.origin;
  }
  FAIL("no import of " << target);
  return facts::ImportOrigin::external;
}

}  // namespace

TEST_CASE("pipeline::resolve_import_origins tells local sources, compiled extensions and libraries apart",
          "[pipeline]") {
  const std::vector<std::string> modules = {"csrc_pkg", "csrc_pkg.ops", "csrc_pkg.ops.attention", "csrc_pkg.utils",
                                            "train"};
  auto f = facts_of(
      "import torch\n"
      "from . import _C\n"
      "from .ops import attention\n"
      "from .utils import _private_helper\n"
      "from csrc_pkg import fused_layer_norm_cuda\n"
      "import csrc_pkg.missing_ext\n"
      "from flash_attn import flash_attn_func\n",
      "csrc_pkg/model.py");
  pipeline::resolve_import_origins(f, modules);
  CHECK(origin_of(f, "torch") == facts::ImportOrigin::external);
  CHECK(origin_of(f, "csrc_pkg._C") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(f, "csrc_pkg.ops.attention") == facts::ImportOrigin::local_source);
  CHECK(origin_of(f, "csrc_pkg.utils._private_helper") == facts::ImportOrigin::local_source);
  CHECK(origin_of(f, "csrc_pkg.fused_layer_norm_cuda") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(f, "csrc_pkg.missing_ext") == facts::ImportOrigin::local_missing);
  CHECK(origin_of(f, "flash_attn.flash_attn_func") == facts::ImportOrigin::external);
}

TEST_CASE("pipeline::module_names_of maps files to dotted modules", "[pipeline]") {
  std::vector<discover::SourceFile> files(4);
  files[0].rel_path = "src/pkg/__init__.py";
  files[1].rel_path = "src/pkg/models/llama.py";
  files[2].rel_path = "train.py";
  files[3].rel_path = "kernels/rope.cu";
  files[3].kind = discover::FileKind::cuda_source;
  CHECK(pipeline::module_names_of(files) == std::vector<std::string>{"pkg", "pkg.models.llama", "train"});
}
