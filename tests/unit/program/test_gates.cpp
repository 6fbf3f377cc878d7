// Repo-wide gates (program/gates, program/inherit, named references in program/call_graph) on small
// multi-file repos held in the test.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

program::Program repo(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<facts::FileFacts> facts;
  for (const auto& [path, code] : files) facts.push_back(facts_of(code, path));
  return program::Program::build(std::move(facts));
}

const facts::CallFact& call_on_line(const program::Program& p, const std::string& path, std::uint32_t line) {
  const auto id = p.find_file(path);
  REQUIRE(id);
  for (const auto& c : p.file(*id).calls) {
    if (c.at.line == line) return c;
  }
  FAIL("no call on " << path << ":" << line);
  return p.file(*id).calls.front();
}

bool has(std::uint16_t guards, facts::Guard g) {
  return (guards & facts::guard_bit(g)) != 0;
}

const char* const k_capability = R"PY(import torch


def has_sm90() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 9


def should_fuse() -> bool:
    if not has_sm90():
        return False
    return True
)PY";

const char* const k_layer = R"PY(import torch
from torch import nn

from lib.capability import should_fuse


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fused = should_fuse()

    def forward(self, x):
        if self.fused:
            from lib.fused import fused_op

            return fused_op(x)
        if should_fuse():
            x = x.to("cuda")
        return x.relu()
)PY";

const char* const k_fused = R"PY(import torch


def fused_op(x):
    return torch.empty_like(x, device="cuda").copy_(x)
)PY";

}  // namespace

TEST_CASE("program: a repo predicate that probes CUDA guards the branches that call it", "[program]") {
  const auto p = repo({{"lib/__init__.py", ""},
                       {"lib/capability.py", k_capability},
                       {"lib/layer.py", k_layer},
                       {"lib/fused.py", k_fused}});
  const auto layer = *p.find_file("lib/layer.py");
  const auto& to_cuda = call_on_line(p, "lib/layer.py", 18);
  CHECK(has(p.guards_at(layer, to_cuda.ctx), facts::Guard::cuda_available));
  const auto& relu = call_on_line(p, "lib/layer.py", 19);
  CHECK_FALSE(has(p.guards_at(layer, relu.ctx), facts::Guard::cuda_available));
  // fused.py is imported only under `if self.fused:` (a flag set from the probe): its functions too.
  const auto fused = *p.find_file("lib/fused.py");
  const auto& empty = call_on_line(p, "lib/fused.py", 5);
  CHECK(has(p.guards_at(fused, empty.ctx), facts::Guard::cuda_available));
}

TEST_CASE("program: a registered executor no default selects is an opt-in plugin", "[program]") {
  const char* const pretrain = R"PY(import torch


def setup(model, executors=("sdpa", "torch")):
    import ext.fast.executor  # noqa: F401
    import thunder

    return thunder.jit(model, executors=executors)
)PY";
  const char* const executor = R"PY(from thunder.extend import OperatorExecutor, register_executor

fast_ex = OperatorExecutor("fast", version="1")
register_executor(fast_ex)
)PY";
  const char* const kernel = R"PY(import torch


def fast_gelu(x):
    return x.to("cuda") * 0.5
)PY";
  const auto p =
      repo({{"pretrain.py", pretrain}, {"ext/fast/executor.py", executor}, {"ext/fast/kernels/gelu.py", kernel}});
  const auto gelu = *p.find_file("ext/fast/kernels/gelu.py");
  const auto& to = call_on_line(p, "ext/fast/kernels/gelu.py", 5);
  CHECK(has(p.guards_at(gelu, to.ctx), facts::Guard::opt_in));
  CHECK(p.opt_in_option(gelu, to.ctx) == "executors include \"fast\"");

  // Listed among the defaults, the same executor is on by default.
  const std::string chosen = std::string(pretrain).replace(std::string(pretrain).find("(\"sdpa\""), 7, "(\"fast\"");
  const auto q =
      repo({{"pretrain.py", chosen}, {"ext/fast/executor.py", executor}, {"ext/fast/kernels/gelu.py", kernel}});
  const auto gelu_q = *q.find_file("ext/fast/kernels/gelu.py");
  CHECK_FALSE(has(q.guards_at(gelu_q, call_on_line(q, "ext/fast/kernels/gelu.py", 5).ctx), facts::Guard::opt_in));
}

TEST_CASE("program: a class named by a dotted string to a serving engine runs as inference", "[program]") {
  const char* const sync = R"PY(import torch


class WeightSync:
    def receive(self, shape):
        return torch.empty(shape, device="cuda")
)PY";
  const char* const rollout = R"PY(from vllm import LLM


def rollouts(path, prompts):
    llm = LLM(model=path, worker_extension_cls="pkg.sync.WeightSync")
    return llm.generate(prompts)
)PY";
  const char* const train = R"PY(import torch

from pkg.rollout import rollouts


def main(model, prompts):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        texts = rollouts("ckpt", prompts)
        loss = model(texts).mean()
        loss.backward()
        optimizer.step()
)PY";
  const auto p =
      repo({{"pkg/__init__.py", ""}, {"pkg/sync.py", sync}, {"pkg/rollout.py", rollout}, {"train.py", train}});
  const auto file = *p.find_file("pkg/sync.py");
  const auto& empty = call_on_line(p, "pkg/sync.py", 6);
  CHECK(p.region_at(file, empty.ctx) == facts::Region::inference);
  CHECK(p.roles_at(file, empty.ctx).test(static_cast<std::size_t>(program::Role::inference)));
}

TEST_CASE("program: a zero period turns a feature off; a count above one does not", "[program]") {
  const char* const model = R"PY(import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, vis_period: int = 0, world_size: int = 1):
        super().__init__()
        self.vis_period = vis_period
        if world_size > 1:
            torch.cuda.set_device(0)

    def forward(self, x):
        if self.vis_period > 0:
            print(x.cpu())
        return x
)PY";
  const auto p = repo({{"net.py", model}});
  const auto file = *p.find_file("net.py");
  const auto& cpu = call_on_line(p, "net.py", 14);
  CHECK(p.opt_in_option(file, cpu.ctx) == "self.vis_period > 0");
  const auto& set_device = call_on_line(p, "net.py", 10);
  CHECK_FALSE(has(p.guards_at(file, set_device.ctx), facts::Guard::opt_in));
}

TEST_CASE("program: modules that only import each other inherit no gate", "[program]") {
  // A model package loaded by name from a config: nothing outside imports it, its modules import
  // each other. No path through a gate is known, so its code is judged as written.
  const char* const init = R"PY(from pkg.experts import Experts
from pkg.router import Router
)PY";
  const char* const experts = R"PY(import torch
from torch import nn

import pkg


class Experts(nn.Module):
    def forward(self, x, counts):
        return torch.cat([c * 2 for c in x.split(counts.tolist())])
)PY";
  const char* const router = R"PY(from torch import nn

from pkg.experts import Experts


class Router(nn.Module):
    def __init__(self):
        super().__init__()
        self.experts = Experts()
)PY";
  const auto p = repo({{"pkg/__init__.py", init}, {"pkg/experts.py", experts}, {"pkg/router.py", router}});
  const auto file = *p.find_file("pkg/experts.py");
  const auto& tolist = call_on_line(p, "pkg/experts.py", 9);
  CHECK(p.guards_at(file, tolist.ctx) == tolist.ctx.guards);
  CHECK(p.opt_in_option(file, tolist.ctx).empty());
}
