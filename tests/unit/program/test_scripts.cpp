// Scripts and notebooks that do not train (program/variants: find_scripts_without_training), the else
// of a try around an import (facts walker), and repo functions named for inference (program/roles).
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

const char* const k_model = R"PY(import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 8)

    def forward(self, x):
        return self.head(x)
)PY";

/// A training loop over `make`, the model built from `import`.
std::string training_loop(std::string_view import, std::string_view function, std::string_view make) {
  return "import torch\n\n" + std::string(import) + "\n\n\ndef " + std::string(function) +
         "():\n    model = " + std::string(make) +
         "\n    optimizer = torch.optim.AdamW(model.parameters())\n    for x in [torch.randn(2, 8)]:\n"
         "        loss = model(x).sum()\n        loss.backward()\n        optimizer.step()\n";
}

const std::string k_loop = training_loop("from lib.model import TinyLM", "fit", "TinyLM()");

const char* const k_demo = R"PY(import torch

from lib.model import TinyLM


def main():
    model = TinyLM().to("cuda")
    print(model(torch.randn(1, 8, device="cuda")))


if __name__ == "__main__":
    main()
)PY";

program::Program build(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<facts::FileFacts> facts;
  for (const auto& [path, code] : files) facts.push_back(facts_of(code, path));
  return program::Program::build(std::move(facts));
}

}  // namespace

TEST_CASE("program: a script that runs a model and never trains is a script without training", "[program][scripts]") {
  const char* const driver = R"PY(from lib.loop import fit


if __name__ == "__main__":
    fit()
)PY";
  const auto p = build({{"lib/model.py", k_model}, {"lib/loop.py", k_loop}, {"run.py", driver}, {"demo.py", k_demo}});
  CHECK(p.script_without_training(*p.find_file("demo.py")));
  CHECK_FALSE(p.script_without_training(*p.find_file("lib/loop.py")));   // holds a training entry point
  CHECK_FALSE(p.script_without_training(*p.find_file("lib/model.py")));  // a library module, imported
  // A script that calls the repo's training function drives training.
  CHECK_FALSE(p.script_without_training(*p.find_file("run.py")));

  // So does one that only imports what a training entry point's file defines (a Ray actor it starts).
  const char* const actor_launcher = R"PY(import ray

from lib.loop import fit


if __name__ == "__main__":
    ray.remote(fit).remote()
)PY";
  const auto r = build({{"lib/model.py", k_model}, {"lib/loop.py", k_loop}, {"launch.py", actor_launcher}});
  CHECK_FALSE(r.script_without_training(*r.find_file("launch.py")));

  // A repo without a training entry point is a library: nothing is judged a non-training script.
  const auto s = build({{"lib/model.py", k_model}, {"demo.py", k_demo}});
  CHECK_FALSE(s.script_without_training(*s.find_file("demo.py")));
}

TEST_CASE("facts: the else of a try whose except catches ImportError runs behind the fallback", "[facts][scripts]") {
  const auto f = facts_of(R"PY(def collect_env_info():
    data = []
    try:
        from lib import _C
    except ImportError:
        data.append("not built")
    else:
        data.append(_C.get_compiler_version())
    finally:
        data.append(len(data))
    return data
)PY",
                          "lib/env.py");
  const auto* version = tr2audit::testing::call_at(f, 8, "get_compiler_version");
  REQUIRE(version);
  CHECK(version->ctx.has(facts::Guard::import_error_fallback));
  const auto* count = tr2audit::testing::call_at(f, 10, "append");
  REQUIRE(count);
  CHECK_FALSE(count->ctx.has(facts::Guard::import_error_fallback));
}

TEST_CASE("program: a repo function named for inference runs as inference from a training forward",
          "[program][scripts]") {
  const char* const attention = R"PY(import torch
from torch import nn


class Attention(nn.Module):
    def forward(self, x, store=None):
        if store is not None:
            return self._forward_inference(x, store)
        return self._forward_training(x)

    def _forward_inference(self, x, store):
        return x[x > 0]

    def _forward_training(self, x):
        return x * 2
)PY";
  const std::string train = training_loop("from lib.attention import Attention", "main", "Attention()");
  const auto p = build({{"lib/attention.py", attention}, {"train.py", train}});
  const auto file = *p.find_file("lib/attention.py");
  const auto& functions = p.file(file).functions;
  const auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (functions[i].name == name) return static_cast<std::int32_t>(i);
    }
    FAIL("no function " << name);
    return -1;
  };
  facts::Context inference;
  inference.function = index_of("_forward_inference");
  facts::Context training;
  training.function = index_of("_forward_training");
  const auto roles_inference = p.roles_at(file, inference);
  CHECK(roles_inference.test(static_cast<std::size_t>(program::Role::inference)));
  CHECK_FALSE(roles_inference.test(static_cast<std::size_t>(program::Role::training_forward)));
  CHECK(p.roles_at(file, training).test(static_cast<std::size_t>(program::Role::training_forward)));
}

TEST_CASE("program: a module-level private helper nothing outside tests calls, passes or names is dead code",
          "[program][scripts]") {
  const char* const kernels = R"PY(import torch


def _prune(configs, named_args):
    return configs


def _fwd(x):
    return x * 2


def _fwd_wip(x):
    return x.cuda() * 2


def _only_tested(x):
    return x.cuda()


def run(x, tune=dict(prune=_prune)):
    return _fwd(x)
)PY";
  const char* const test = R"PY(from lib.kernels import _only_tested


def test_only():
    assert _only_tested(1)
)PY";
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(kernels, "lib/kernels.py"));
  files.push_back(facts_of(test, "tests/test_kernels.py", true));
  const auto p = program::Program::build(std::move(files));
  const auto file = *p.find_file("lib/kernels.py");
  const auto& functions = p.file(file).functions;
  const auto dead = [&](const std::string& name) {
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (functions[i].name != name) continue;
      facts::Context ctx;
      ctx.function = static_cast<std::int32_t>(i);
      return p.dead_code(file, ctx) != program::DeadCode::live;
    }
    FAIL("no function " << name);
    return false;
  };
  CHECK(dead("_fwd_wip"));
  CHECK(dead("_only_tested"));  // tests call everything: their calls say nothing of a run
  CHECK_FALSE(dead("_fwd"));    // called by run
  CHECK_FALSE(dead("_prune"));  // passed as a value
  CHECK_FALSE(dead("run"));     // public API
}

TEST_CASE("program: a definition a later one of the same name replaces is dead, and so is a kernel only it launches",
          "[program][scripts]") {
  const char* const ring = R"PY(import torch
import triton
import triton.language as tl

try:
    from fused_ops import apply_rope
except ImportError:
    def apply_rope(q, freqs):
        return q * freqs


@triton.jit
def flatten_kernel(out_ptr, lse_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(lse_ptr + offs))


def flatten_lse(lse):
    def grid(meta):
        return (triton.cdiv(lse.numel(), meta["BLOCK"]),)

    out = torch.empty_like(lse)
    flatten_kernel[grid](out, lse, lse.numel(), BLOCK=64)
    return out


def warmup(x):
    return x.cuda()


WARM = warmup(torch.zeros(1))


def warmup(x):
    return x


def pad(x):
    return x.cuda()


if torch.cuda.is_available():
    def pad(x):
        return x


@torch.jit.script
def flatten_lse(lse):
    return lse.flatten()


class Block(torch.nn.Module):
    @property
    def width(self):
        return 8

    @width.setter
    def width(self, value):
        pass

    def forward(self, x):
        return x.cuda()

    def forward(self, x):
        return flatten_lse(x) + apply_rope(x, x)
)PY";
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(ring, "lib/ring.py"));
  program::LockinKnowledge knowledge;
  knowledge.kernel_decorator = [](const QualifiedName& name) { return name.dotted() == "triton.jit"; };
  const auto p = program::Program::build(std::move(files), false, std::move(knowledge));
  const auto file = *p.find_file("lib/ring.py");
  const auto& functions = p.file(file).functions;
  // The n-th function (in source order) whose qualified name is `qualname`.
  const auto why = [&](const std::string& qualname, int nth) {
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (functions[i].qualname != qualname || nth-- > 0) continue;
      facts::Context ctx;
      ctx.function = static_cast<std::int32_t>(i);
      return p.dead_code(file, ctx);
    }
    FAIL("no function " << qualname);
    return program::DeadCode::live;
  };
  CHECK(why("flatten_lse", 0) == program::DeadCode::shadowed);       // the jit-scripted one replaces it
  CHECK(why("flatten_lse.grid", 0) == program::DeadCode::shadowed);  // nested code dies with it
  CHECK(why("flatten_lse", 1) == program::DeadCode::live);
  CHECK(why("flatten_kernel", 0) == program::DeadCode::used_only_by_dead_code);
  CHECK(why("warmup", 0) == program::DeadCode::live);  // module code between the two calls the first
  CHECK(why("pad", 0) == program::DeadCode::live);     // the later one is defined only on one branch
  CHECK(why("apply_rope", 0) == program::DeadCode::live);
  CHECK(why("Block.width", 0) == program::DeadCode::live);  // `@width.setter` names the getter
  CHECK(why("Block.forward", 0) == program::DeadCode::shadowed);
  CHECK(why("Block.forward", 1) == program::DeadCode::live);
  // The fact behind it: a definition under an if/try is conditional, one in a body is not.
  CHECK(functions[0].name == "apply_rope");
  CHECK(functions[0].conditional);
  CHECK_FALSE(functions[1].conditional);
}
