#include <algorithm>
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"

using namespace tr2audit;
using tr2audit::testing::call_at;
using tr2audit::testing::facts_of;

namespace {

std::vector<std::string> reference_names(const facts::FileFacts& f) {
  std::vector<std::string> out;
  for (const auto& r : f.references) out.push_back(r.name.dotted() + "@" + std::to_string(r.at.line));
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

TEST_CASE("facts::Extractor records resolved names used as values, not calls or targets", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "from torch.profiler import ProfilerActivity\n"
      "from torch.utils.cpp_extension import BuildExtension\n"
      "acts = [ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]\n"
      "ok = isinstance(t, torch.cuda.FloatTensor)\n"
      "torch.cuda.synchronize()\n"
      "torch.cuda.is_bf16_supported = lambda: True\n"
      "setup(cmdclass={'build_ext': BuildExtension}, backend='x')\n"
      "class B(BuildExtension):\n"
      "    pass\n"
      "autocast = torch.cuda.amp.autocast if old else torch.amp.autocast\n");
  const auto refs = reference_names(f);
  CHECK(has(refs, "torch.profiler.ProfilerActivity.CPU@4"));
  CHECK(has(refs, "torch.profiler.ProfilerActivity.CUDA@4"));
  CHECK(has(refs, "torch.cuda.FloatTensor@5"));
  CHECK(has(refs, "torch.utils.cpp_extension.BuildExtension@8"));
  CHECK(has(refs, "torch.utils.cpp_extension.BuildExtension@9"));
  CHECK(has(refs, "torch.cuda.amp.autocast@11"));
  CHECK(has(refs, "torch.amp.autocast@11"));
  // The called function, its receiver chain and an assignment target have their own facts.
  CHECK_FALSE(has(refs, "torch.cuda.synchronize@6"));
  CHECK_FALSE(has(refs, "torch.cuda@6"));
  CHECK_FALSE(has(refs, "torch.cuda.is_bf16_supported@7"));
  // Only the outermost attribute of a chain.
  CHECK_FALSE(has(refs, "torch.profiler.ProfilerActivity@4"));
  CHECK_FALSE(has(refs, "torch.profiler@4"));
}

TEST_CASE("facts::Extractor keeps both literal branches of a conditional argument", "[facts]") {
  const auto f = facts_of(
      "import torch.distributed as dist\n"
      "dist.init_process_group(backend='NCCL' if has_gpu else 'GLOO', init_method=url)\n"
      "dist.init_process_group(backend=pick() if a else b)\n");
  const auto* call = call_at(f, 2);
  REQUIRE(call);
  REQUIRE(call->args.size() == 2);
  REQUIRE(call->args[0].conditional);
  CHECK(call->args[0].conditional->then_value == "NCCL");
  CHECK(call->args[0].conditional->else_value == "GLOO");
  CHECK(call->args[0].conditional->condition == "has_gpu");
  CHECK_FALSE(call_at(f, 3)->args[0].conditional);
}

TEST_CASE("facts::Extractor gives an import the span of its whole statement", "[facts]") {
  const auto f = facts_of(
      "from torch.utils.cpp_extension import (\n"
      "    BuildExtension,\n"
      "    CUDAExtension,\n"
      ")\n");
  REQUIRE(f.imports.size() == 2);
  CHECK(f.imports[1].at.line == 3);
  CHECK(f.imports[1].statement.line == 1);
  CHECK(f.imports[1].statement.end_line == 4);
}

TEST_CASE("facts::ImportTable maps re-exported implementation paths to public names", "[facts]") {
  const auto f = facts_of(
      "from torch.utils.data.dataloader import DataLoader\n"
      "from torch.nn.modules.linear import Linear\n"
      "import torch.nn.modules as mods\n"
      "from transformers.trainer import Trainer\n"
      "from transformers.data.data_collator import DataCollatorWithPadding\n"
      "from torch.cuda.amp.autocast_mode import autocast\n"
      "from transformers.trainer_utils import get_last_checkpoint\n"
      "DataLoader(ds, shuffle=True)\n"
      "Linear(4, 4)\n"
      "mods.Conv2d(3, 8, 3)\n"
      "Trainer(model=m)\n"
      "DataCollatorWithPadding(tok)\n"
      "autocast()\n"
      "get_last_checkpoint(d)\n");
  CHECK(call_at(f, 8)->callee.dotted() == "torch.utils.data.DataLoader");
  CHECK(call_at(f, 9)->callee.dotted() == "torch.nn.Linear");
  CHECK(call_at(f, 10)->callee.dotted() == "torch.nn.Conv2d");
  CHECK(call_at(f, 11)->callee.dotted() == "transformers.Trainer");
  CHECK(call_at(f, 12)->callee.dotted() == "transformers.DataCollatorWithPadding");
  CHECK(call_at(f, 13)->callee.dotted() == "torch.cuda.amp.autocast");
  CHECK(call_at(f, 14)->callee.dotted() == "transformers.trainer_utils.get_last_checkpoint");
}

TEST_CASE("facts::find_cuda_kernels finds each __global__ function at its line", "[facts]") {
  const std::string text =
      "// __global__ in a comment\n"
      "template <typename T>\n"
      "__global__ __launch_bounds__(256) void fwd_kernel(T* out) {}\n"
      "/* __global__ void not_this(); */\n"
      "__device__ float helper(float x) { return x; }\n"
      "const char* s = \"__global__ void nor_this()\";\n"
      "#define DEF(name) template <int N> __global__ void name(int n)\n"
      "__global__\n"
      "void bwd_kernel(float* g) {}\n";
  const auto kernels = facts::find_cuda_kernels(text);
  REQUIRE(kernels.size() == 3);
  CHECK(kernels[0].at.line == 3);
  CHECK(kernels[0].detail == "fwd_kernel");
  CHECK(kernels[1].at.line == 7);
  CHECK(kernels[1].detail == "name");
  CHECK(kernels[2].at.line == 8);
  CHECK(kernels[2].detail == "bwd_kernel");
  CHECK(kernels[0].kind == "cuda-kernel");
}

TEST_CASE("facts::cuda_source_names names each CUDA source a text mentions, and patterns as empty", "[facts]") {
  std::vector<std::string> names;
  facts::cuda_source_names("[\"csrc/fftconv.cpp\", \"csrc/fftconv_cuda.cu\", f\"{d}/fbd/fbd_kernel.cu\"]", names);
  facts::cuda_source_names("glob.glob(\"csrc/*.cu\") + [x for x in os.listdir(d) if x.endswith('.cuh')]", names);
  facts::cuda_source_names("x.cuda() and torch.cuda.is_available() and 'kernels.cube'", names);
  REQUIRE(names.size() == 4);
  CHECK(names[0] == "csrc/fftconv_cuda.cu");
  CHECK(names[1] == "/fbd/fbd_kernel.cu");
  CHECK(names[2].empty());  // "*.cu": any source
  CHECK(names[3].empty());  // ".cuh": any header
}

TEST_CASE("facts::Extractor keeps the strings that name CUDA sources, not other strings", "[facts]") {
  const auto f = facts_of(
      "import glob\n"
      "from torch.utils.cpp_extension import CUDAExtension\n"
      "SOURCES = ['csrc/attn.cpp', 'csrc/attn_kernel.cu']\n"
      "extra = glob.glob('csrc/extra/*.cu')\n"
      "device = 'cuda'\n"
      "ext = CUDAExtension('attn_cuda', SOURCES + extra)\n");
  REQUIRE(f.source_file_strings.size() == 2);
  CHECK(f.source_file_strings[0] == "csrc/attn_kernel.cu");
  CHECK(f.source_file_strings[1] == "csrc/extra/*.cu");
}

TEST_CASE("facts::Extractor records the capitalised names code uses other than by calling them", "[facts]") {
  const auto f = facts_of(
      "from .ops import ConvLayer, UpSampleLayer\n"
      "class Block(nn.Module):\n"
      "    def __init__(self):\n"
      "        super(Block, self).__init__()\n"
      "        self.layers = [ConvLayer, Norm]\n"
      "    def check(self, m):\n"
      "        return isinstance(m, Scaled) or Registry.build(m)\n"
      "    def cast(self, x: Hint) -> Out:\n"
      "        Built = ConvLayer(x)\n"
      "        return Built\n");
  std::vector<std::string> used;
  for (const auto& name : f.used_names) used.emplace_back(name.view());
  for (const char* name : {"ConvLayer", "Norm", "Scaled", "Registry"}) {
    INFO(name);
    CHECK(has(used, name));
  }
  // Not a definition, an import, a `super(Block, self)` naming its own class or an assignment's target; a call is a
  // call fact. (`Built` is read by the return: a use.)
  CHECK_FALSE(has(used, "Block"));
  CHECK_FALSE(has(used, "UpSampleLayer"));
  // Nor an annotation: it builds nothing.
  CHECK_FALSE(has(used, "Hint"));
  CHECK_FALSE(has(used, "Out"));
  CHECK(has(used, "Built"));
}
