// Lock-in through the repo's own code (src/program/lockin.cpp): seeds from extension handles, kernel
// calls and Triton kernels; propagation to unguarded callers; one `lock-in-call` per call site where
// code nothing calls by name reaches a lock-in function, with the chain to the kernel.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

program::LockinKnowledge knowledge() {
  program::LockinKnowledge out;
  out.kernel_call = [](const facts::CallFact& call) { return call.callee.starts_with("torch.ops.mylib"); };
  out.kernel_decorator = [](const QualifiedName& name) { return name.dotted() == "triton.jit"; };
  out.extension_module = [](const QualifiedName& name, facts::ImportOrigin) {
    return ends_with(name.last_segment(), "_cuda");
  };
  return out;
}

program::Program repo(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<facts::FileFacts> facts;
  for (auto& [path, code] : files) facts.push_back(facts_of(code, path, path.rfind("tests/", 0) == 0));
  return program::Program::build(std::move(facts), false, knowledge());
}

program::FunctionId function(const program::Program& p, std::string_view path, std::string_view qualname) {
  const auto file = p.find_file(path);
  REQUIRE(file);
  const auto& functions = p.file(*file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].qualname == qualname) return program::FunctionId{*file, static_cast<std::int32_t>(i)};
  }
  FAIL("no function " << qualname << " in " << path);
  return {};
}

std::vector<std::pair<std::uint32_t, std::string>> patterns(const program::Program& p, std::string_view path,
                                                            std::string_view kind) {
  std::vector<std::pair<std::uint32_t, std::string>> out;
  for (const auto& pattern : p.patterns(*p.find_file(path))) {
    if (pattern.kind == kind) out.emplace_back(pattern.at.line, pattern.detail);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const char* const k_ops = R"PY(import torch


def fused_norm(x, w):
    return torch.ops.mylib.fused_norm(x, w)


def guarded_norm(x, w):
    if torch.cuda.is_available():
        return torch.ops.mylib.fused_norm(x, w)
    return torch.nn.functional.layer_norm(x, x.shape[-1:], w)
)PY";

const char* const k_model = R"PY(import torch
from torch import nn

from mylib import fused_norm, guarded_norm


def pre_norm(x, w):
    return fused_norm(x, w)


class Block(nn.Module):
    def forward(self, x):
        h = pre_norm(x, self.w)
        h = guarded_norm(h, self.w)
        return fused_norm(h, self.w)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)
)PY";

const char* const k_train = R"PY(import torch
from model import Model


def main():
    model = Model()
    opt = torch.optim.AdamW(model.parameters())
    for batch in range(10):
        loss = model(batch)
        loss.backward()
        opt.step()
)PY";

}  // namespace

TEST_CASE("program: lock-in propagates from a kernel call through re-exports to unguarded callers", "[program]") {
  const auto p = repo({{"mylib/__init__.py", "from .ops import fused_norm, guarded_norm\n"},
                       {"mylib/ops.py", k_ops},
                       {"model.py", k_model},
                       {"train.py", k_train}});
  CHECK(p.is_lockin(function(p, "mylib/ops.py", "fused_norm")));
  CHECK_FALSE(p.is_lockin(function(p, "mylib/ops.py", "guarded_norm")));  // the kernel runs only under a CUDA check
  CHECK(p.is_lockin(function(p, "model.py", "pre_norm")));
  CHECK(p.is_lockin(function(p, "model.py", "Block.forward")));
  CHECK(p.is_lockin(function(p, "model.py", "Model.forward")));  // through the submodule's forward
  CHECK(p.lockin_chain(function(p, "model.py", "pre_norm")) ==
        "pre_norm → ops.fused_norm → torch.ops.mylib.fused_norm");

  // Reported where code nothing calls by name (a module's forward) names lock-in code: Block.forward's
  // two calls, not pre_norm's own link, not Model.forward's submodule call, not train.py's model(batch).
  CHECK(patterns(p, "model.py", "lock-in-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{
            {13, "Block.forward → pre_norm → ops.fused_norm → torch.ops.mylib.fused_norm"},
            {15, "Block.forward → ops.fused_norm → torch.ops.mylib.fused_norm"}});
  CHECK(patterns(p, "train.py", "lock-in-call").empty());
  CHECK(patterns(p, "mylib/ops.py", "lock-in-call").empty());
}

TEST_CASE("program: tests calling lock-in code by name neither propagate nor move the report", "[program]") {
  const auto p =
      repo({{"mylib/__init__.py", "from .ops import fused_norm, guarded_norm\n"},
            {"mylib/ops.py", k_ops},
            {"model.py", k_model},
            {"tests/test_block.py", "from model import Block\n\ndef test_block():\n    Block().forward(1)\n"}});
  CHECK(patterns(p, "model.py", "lock-in-call").size() == 2);
  CHECK(patterns(p, "tests/test_block.py", "lock-in-call").empty());
}

TEST_CASE("program: a run's body calling lock-in code only to evaluate is not reported at that call", "[program]") {
  // A notebook that evaluates a model once through a kernel wrapper, then fine-tunes: the evaluation's own
  // call carries the chain (in evaluation code), and the notebook's call of it is not training lock-in.
  // A call the training loop makes through the same wrapper is.
  const auto p = repo({{"mylib/__init__.py", "from .ops import fused_norm, guarded_norm\n"},
                       {"mylib/ops.py", k_ops},
                       {"notebook.py", R"PY(import torch
from mylib import fused_norm


def run_validation(batches, w):
    return [fused_norm(b, w) for b in batches]


def norm_step(x, w):
    return fused_norm(x, w)


run_validation(val_batches, w)
for batch in loader:
    loss = norm_step(batch, w).sum()
    loss.backward()
    optimizer.step()
)PY"}});
  CHECK(patterns(p, "notebook.py", "lock-in-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{
            {6, "run_validation → ops.fused_norm → torch.ops.mylib.fused_norm"},
            {10, "norm_step → ops.fused_norm → torch.ops.mylib.fused_norm"},
            {15, "notebook → norm_step → ops.fused_norm → torch.ops.mylib.fused_norm"}});
}

TEST_CASE("program: a chain that ends in a CUDA-only library call is a lock-in-library-call", "[program]") {
  program::LockinKnowledge lockin = knowledge();
  const auto kernel = lockin.kernel_call;
  lockin.kernel_call = [kernel](const facts::CallFact& call) {
    return kernel(call) || call.callee.starts_with("flashlib");
  };
  lockin.library_call = [](const facts::CallFact& call) { return call.callee.starts_with("flashlib"); };
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(k_ops, "mylib/ops.py"));
  files.push_back(facts_of("from .ops import fused_norm, guarded_norm\n", "mylib/__init__.py"));
  files.push_back(facts_of(R"PY(import torch
import flashlib
from mylib import fused_norm


def attend(q, k, v):
    return flashlib.flash_attn_func(q, k, v)


class Block(torch.nn.Module):
    def forward(self, q, k, v):
        h = attend(q, k, v)
        return fused_norm(h, self.w)
)PY",
                           "model.py"));
  const auto p = program::Program::build(std::move(files), false, lockin);
  CHECK(patterns(p, "model.py", "lock-in-library-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{{12, "Block.forward → attend → flashlib.flash_attn_func"}});
  CHECK(patterns(p, "model.py", "lock-in-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{
            {13, "Block.forward → ops.fused_norm → torch.ops.mylib.fused_norm"}});
}

TEST_CASE("program: a cycle in the call graph ends the worklist", "[program]") {
  const auto p = repo({{"loop.py", R"PY(import torch


def a(x, n):
    return b(x, n - 1) if n else x


def b(x, n):
    y = torch.ops.mylib.step(x)
    return a(y, n)
)PY"}});
  CHECK(p.is_lockin(function(p, "loop.py", "a")));
  CHECK(p.is_lockin(function(p, "loop.py", "b")));
  CHECK(p.lockin_chain(function(p, "loop.py", "b")) == "loop.py:b → torch.ops.mylib.step");
}

TEST_CASE("program: extension handles from setup.py names, relative _C, CUDA loads and loader helpers", "[program]") {
  const auto p = repo({
      {"setup.py", R"PY(from setuptools import setup
from torch.utils.cpp_extension import CppExtension, CUDAExtension
setup(ext_modules=[CUDAExtension("fused_dense_lib", ["a.cu"]), CppExtension("host_ops", ["h.cpp"])])
)PY"},
      {"pkg/__init__.py", ""},
      {"pkg/dense.py", R"PY(import fused_dense_lib as fused_dense_cuda
import host_ops
from . import _C


def dense(x, w):
    return fused_dense_cuda.linear_forward(x, w)


def bucket(x):
    return host_ops.bucketize(x)


def attn(q):
    return _C.fwd(q)
)PY"},
      {"pkg/jit.py", R"PY(import importlib
from torch.utils.cpp_extension import load

SRC = ["k.cpp", "k_kernel.cu"]
_gpu = load(name="k", sources=SRC, extra_cuda_cflags=["-O3"])
_cpu = load(name="c", sources=["c.cpp"])


def _get():
    return importlib.import_module(__package__ + "._ext")


def run(x):
    ext = _get()
    return _gpu.forward(x) + _cpu.forward(x) + ext.op(x) + _get().op2(x)
)PY"},
  });
  CHECK(patterns(p, "pkg/dense.py", "extension-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{{7, "fused_dense_lib.linear_forward"}, {15, "pkg._C.fwd"}});
  CHECK(p.is_lockin(function(p, "pkg/dense.py", "dense")));
  CHECK_FALSE(p.is_lockin(function(p, "pkg/dense.py", "bucket")));  // a CppExtension is host code
  const auto jit = patterns(p, "pkg/jit.py", "extension-call");
  std::vector<std::string> details;
  for (const auto& [line, detail] : jit) details.push_back(detail);
  std::sort(details.begin(), details.end());
  CHECK(details == std::vector<std::string>{"_get().op2", "_gpu.forward", "ext.op"});  // not _cpu.forward
}

TEST_CASE("program: inside a kernel library, its own modules calling its Triton kernels are lock-in", "[program]") {
  const auto p = repo({
      {"flash_attn/__init__.py", ""},
      {"flash_attn/ops/__init__.py", ""},
      {"flash_attn/ops/rotary.py", R"PY(import torch
import triton


@triton.jit
def rotary_kernel(x_ptr, n):
    pass


def apply_rotary(x):
    rotary_kernel[(x.numel(),)](x, x.numel())
    return x
)PY"},
      {"flash_attn/layers/__init__.py", ""},
      {"flash_attn/layers/rotary.py", R"PY(import torch
from flash_attn.ops.rotary import apply_rotary


class RotaryEmbedding(torch.nn.Module):
    def forward(self, x):
        return apply_rotary(x)
)PY"},
      {"flash_attn/bert_padding.py", "import torch\n\ndef pad_input(x, idx):\n    return x[idx]\n"},
  });
  CHECK(p.is_lockin(function(p, "flash_attn/ops/rotary.py", "rotary_kernel")));
  CHECK(p.is_lockin(function(p, "flash_attn/ops/rotary.py", "apply_rotary")));
  CHECK_FALSE(p.is_lockin(function(p, "flash_attn/bert_padding.py", "pad_input")));
  CHECK(patterns(p, "flash_attn/layers/rotary.py", "lock-in-call") ==
        std::vector<std::pair<std::uint32_t, std::string>>{
            {7, "RotaryEmbedding.forward → rotary.apply_rotary → rotary_kernel → @triton.jit kernel"}});
  CHECK_FALSE(p.neuron_stack());
}

TEST_CASE("program: a repo that trains with a Neuron stack says so", "[program]") {
  CHECK(repo({{"train.py", "import torch\nfrom optimum.neuron import NeuronTrainer\n"}}).neuron_stack());
  CHECK(repo({{"optimum/neuron/trainer.py", "import torch\n"}}).neuron_stack());
  CHECK_FALSE(repo({{"tests/test_x.py", "import torch_neuronx\n"}, {"train.py", "import torch\n"}}).neuron_stack());
}
