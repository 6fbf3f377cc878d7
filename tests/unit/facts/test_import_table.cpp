#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"

using tr2audit::testing::callee_at;
using tr2audit::testing::facts_of;

TEST_CASE("facts::ImportTable resolves import-as aliases", "[facts]") {
  const auto f = facts_of(
      "import torch as th\n"
      "import torch.nn.functional as F\n"
      "th.cuda.synchronize()\n"
      "F.grid_sample(x, g)\n");
  CHECK(callee_at(f, 3) == "torch.cuda.synchronize");
  CHECK(callee_at(f, 4) == "torch.nn.functional.grid_sample");
}

TEST_CASE("facts::ImportTable resolves from-imports with and without aliases", "[facts]") {
  const auto f = facts_of(
      "from torch.utils import cpp_extension as ce\n"
      "from torch.utils.cpp_extension import load_inline as build_inline\n"
      "from torch import cuda\n"
      "import json\n"
      "ce.load(name='x', sources=['a.cu'])\n"
      "build_inline(name='rope', cpp_sources=[], cuda_sources=[])\n"
      "cuda.synchronize()\n"
      "json.load(open('c.json'))\n");
  CHECK(callee_at(f, 5) == "torch.utils.cpp_extension.load");
  CHECK(callee_at(f, 6) == "torch.utils.cpp_extension.load_inline");
  CHECK(callee_at(f, 7) == "torch.cuda.synchronize");
  CHECK(callee_at(f, 8) == "json.load");
}

TEST_CASE("facts::ImportTable follows `import a.b` binding only `a`", "[facts]") {
  const auto f = facts_of(
      "import torch.distributed\n"
      "torch.distributed.init_process_group(backend='nccl')\n");
  CHECK(callee_at(f, 2) == "torch.distributed.init_process_group");
  REQUIRE(f.imports.size() == 1);
  CHECK(f.imports[0].bound_name == "torch");
}

TEST_CASE("facts::ImportTable resolves simple re-bindings", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "F = torch.nn.functional\n"
      "amp = torch.cuda.amp\n"
      "F.interpolate(x, size=(224, 224))\n"
      "scaler = amp.GradScaler()\n");
  CHECK(callee_at(f, 4) == "torch.nn.functional.interpolate");
  CHECK(callee_at(f, 5) == "torch.cuda.amp.GradScaler");
}

TEST_CASE("facts::ImportTable scopes function-local imports", "[facts]") {
  const auto f = facts_of(
      "def build():\n"
      "    from torch.utils.cpp_extension import load\n"
      "    return load(name='k', sources=['k.cu'])\n"
      "def other():\n"
      "    return load('x')\n");
  CHECK(callee_at(f, 3) == "torch.utils.cpp_extension.load");
  CHECK(callee_at(f, 5).empty());
}

TEST_CASE("facts::ImportTable lets parameters and locals shadow imports", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "def step(torch):\n"
      "    torch.cuda.synchronize()\n"
      "def other():\n"
      "    torch.cuda.synchronize()\n"
      "def third():\n"
      "    torch = make_fake()\n"
      "    torch.cuda.synchronize()\n");
  CHECK(callee_at(f, 3).empty());
  CHECK(callee_at(f, 5) == "torch.cuda.synchronize");
  CHECK(callee_at(f, 8).empty());
}

TEST_CASE("facts::ImportTable hides class-body names from methods", "[facts]") {
  const auto f = facts_of(
      "class Model:\n"
      "    import torch\n"
      "    def forward(self, x):\n"
      "        return torch.relu(x)\n");
  CHECK(callee_at(f, 4).empty());
}

TEST_CASE("facts::ImportTable sees module imports that follow a function definition", "[facts]") {
  const auto f = facts_of(
      "def sync():\n"
      "    torch.cuda.synchronize()\n"
      "import torch\n");
  CHECK(callee_at(f, 2) == "torch.cuda.synchronize");
}

TEST_CASE("facts::ImportTable resolves relative imports against the file's package", "[facts]") {
  const auto f = facts_of(
      "from ..ops import attention\n"
      "from . import _C\n"
      "from .layers.norm import RMSNorm as Norm\n"
      "attention.flash(q, k, v)\n"
      "Norm(512)\n",
      "src/pkg/models/llama.py");
  REQUIRE(f.imports.size() == 3);
  CHECK(f.module_name == "pkg.models.llama");
  CHECK(f.imports[0].target.dotted() == "pkg.ops.attention");
  CHECK(f.imports[0].relative_level == 2);
  CHECK(f.imports[1].target.dotted() == "pkg.models._C");
  CHECK(f.imports[2].target.dotted() == "pkg.models.layers.norm.RMSNorm");
  CHECK(callee_at(f, 4) == "pkg.ops.attention.flash");
  CHECK(callee_at(f, 5) == "pkg.models.layers.norm.RMSNorm");
}

TEST_CASE("facts::ImportTable resolves relative imports in a package __init__", "[facts]") {
  const auto f = facts_of("from .kernels import fused_adam\n", "apex/optimizers/__init__.py");
  REQUIRE(f.imports.size() == 1);
  CHECK(f.imports[0].target.dotted() == "apex.optimizers.kernels.fused_adam");
}

TEST_CASE("facts::Extractor records dynamic imports by string", "[facts]") {
  const auto f = facts_of(
      "import importlib\n"
      "ext = importlib.import_module('fused_layer_norm_cuda')\n"
      "mod = __import__('amp_C')\n");
  int dynamic = 0;
  for (const auto& i : f.imports) {
    if (!i.dynamic) continue;
    ++dynamic;
    CHECK((i.target.dotted() == "fused_layer_norm_cuda" || i.target.dotted() == "amp_C"));
  }
  CHECK(dynamic == 2);
}
