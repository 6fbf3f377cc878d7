// Code a configuration picks by name (program/variants), early returns on an option (facts walker +
// program/options), and parameters rebound before a branch (program/options), on small repos held in
// the test.
#include <algorithm>
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

facts::FileFacts config_file(const std::string& path, std::string_view text) {
  facts::FileFacts f;
  f.path = FactString(path);
  f.kind = discover::FileKind::config;
  f.settings = facts::extract_settings(path, text);
  return f;
}

struct Repo {
  std::vector<facts::FileFacts> files;
  Repo& py(const std::string& path, std::string_view code) {
    files.push_back(facts_of(code, path));
    return *this;
  }
  Repo& config(const std::string& path, std::string_view text) {
    files.push_back(config_file(path, text));
    return *this;
  }
  program::Program build() const { return program::Program::build(files); }
};

const facts::CallFact& call_named(const program::Program& p, const std::string& path, const std::string& method) {
  const auto id = p.find_file(path);
  REQUIRE(id);
  for (const auto& c : p.file(*id).calls) {
    if (c.method == method || c.callee_text == method) return c;
  }
  FAIL("no call of " << method << " in " << path);
  return p.file(*id).calls.front();
}

bool opt_in(const program::Program& p, const std::string& path, const std::string& method) {
  const auto id = *p.find_file(path);
  return (p.guards_at(id, call_named(p, path, method).ctx) & facts::guard_bit(facts::Guard::opt_in)) != 0;
}

std::string option(const program::Program& p, const std::string& path, const std::string& method) {
  const auto id = *p.find_file(path);
  return p.opt_in_option(id, call_named(p, path, method).ctx);
}

// detectron2-style heads: a registry looked up by a name the config holds.
const char* const k_heads = R"PY(import torch
from torch import nn

from det.registry import HEADS


@HEADS.register()
class BoxHead(nn.Module):
    def forward(self, boxes):
        return boxes.sum().item()


@HEADS.register()
class RotatedHead(nn.Module):
    def forward(self, boxes):
        keep = boxes.nonzero()
        return pairwise_rotated(boxes[keep])


def pairwise_rotated(boxes):
    return torch.ops.det.box_iou_rotated(boxes, boxes)


def build_head(cfg):
    return HEADS.get(cfg.MODEL.HEAD)()
)PY";

const char* const k_registry = R"PY(class Registry:
    def __init__(self, name):
        self.name = name

    def register(self):
        def wrap(obj):
            return obj
        return wrap

    def get(self, name):
        return None


HEADS = Registry("heads")
)PY";

const char* const k_defaults = R"PY(from det.config import CfgNode as CN

_C = CN()
_C.MODEL = CN()
_C.MODEL.HEAD = "BoxHead"
)PY";

/// The heads, the registry and the defaults that select the box head.
Repo heads_repo() {
  return Repo{}.py("det/heads.py", k_heads).py("det/registry.py", k_registry).py("det/defaults.py", k_defaults);
}

}  // namespace

TEST_CASE("program: a registered class no shipped config selects is opt-in, and so is what only it calls",
          "[program][variants]") {
  const auto p = heads_repo().build();
  CHECK(opt_in(p, "det/heads.py", "nonzero"));
  CHECK(option(p, "det/heads.py", "nonzero") == "config selects RotatedHead");
  // Called only from the unselected head: inherits its gate.
  CHECK(opt_in(p, "det/heads.py", "torch.ops.det.box_iou_rotated"));
  // The default head is selected by the string the defaults hold.
  CHECK_FALSE(opt_in(p, "det/heads.py", "item"));

  // A shipped YAML config that picks the rotated head selects it.
  const auto q = heads_repo().config("configs/rotated.yaml", "MODEL:\n  HEAD: RotatedHead\n").build();
  CHECK_FALSE(opt_in(q, "det/heads.py", "nonzero"));

  // So does code that constructs it directly (a LazyConfig-style `L(RotatedHead)`), and a subclass in use.
  const auto r =
      heads_repo().py("configs/lazy.py", "from det.heads import RotatedHead\n\nhead = L(RotatedHead)()\n").build();
  CHECK_FALSE(opt_in(r, "det/heads.py", "nonzero"));

  // `__all__` re-exports and comments name nothing.
  const auto s = Repo{}
                     .py("det/heads.py", k_heads)
                     .py("det/registry.py", k_registry)
                     .py("det/defaults.py", std::string(k_defaults) + "# heads: \"RotatedHead\"\n")
                     .py("det/__init__.py", "from det.heads import RotatedHead\n\n__all__ = [\"RotatedHead\"]\n")
                     .build();
  CHECK(opt_in(s, "det/heads.py", "nonzero"));

  // A registry only read by literal names selects nothing by config: no gate.
  std::string literal = k_heads;
  literal.replace(literal.find("HEADS.get(cfg.MODEL.HEAD)"), 25, "HEADS.get(\"BoxHead\")");
  const auto t = Repo{}.py("det/heads.py", literal).py("det/registry.py", k_registry).build();
  CHECK_FALSE(opt_in(t, "det/heads.py", "nonzero"));
}

TEST_CASE("program: a component no shipped config names, in a module configs pick components from, is opt-in",
          "[program][variants]") {
  const char* const losses = R"PY(import torch


class ForwardKLLoss(torch.nn.Module):
    def forward(self, student, teacher):
        return torch.nn.functional.kl_div(student, teacher)


class ReverseKLLoss(torch.nn.Module):
    def forward(self, student, teacher):
        if (teacher - student).abs().max() > 10:
            return student.sum()
        return teacher.sum()


class SymmetricKLLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fkl = ForwardKLLoss()
        self.rkl = ReverseKLLoss()

    def forward(self, student, teacher):
        return self.fkl(student, teacher) + self.rkl(student, teacher)
)PY";
  const char* const recipe = "loss:\n  _component_: tune.losses.ForwardKLLoss\n";
  const auto p = Repo{}.py("tune/losses.py", losses).config("recipes/configs/kd.yaml", recipe).build();
  CHECK(opt_in(p, "tune/losses.py", "max"));
  CHECK(option(p, "tune/losses.py", "max") == "config selects ReverseKLLoss");
  // The selected loss is called by the config's instantiation, which the call graph cannot see: its
  // only visible caller (the unselected symmetric loss) does not pass it the gate.
  CHECK_FALSE(opt_in(p, "tune/losses.py", "torch.nn.functional.kl_div"));

  // A config that names the symmetric loss selects it, and through its constructor the reverse one.
  const auto q = Repo{}
                     .py("tune/losses.py", losses)
                     .config("recipes/configs/kd.yaml", recipe)
                     .config("recipes/configs/kd_sym.yaml", "loss:\n  _component_: tune.losses.SymmetricKLLoss\n")
                     .build();
  CHECK_FALSE(opt_in(q, "tune/losses.py", "max"));

  // Without component paths in any config, no module is a component library: nothing is gated.
  const auto r = Repo{}.py("tune/losses.py", losses).config("recipes/configs/kd.yaml", "lr: 0.1\n").build();
  CHECK_FALSE(opt_in(r, "tune/losses.py", "max"));
}

TEST_CASE("facts: code after `if not x: return` runs in a branch on x", "[facts][variants]") {
  const auto f = facts_of(R"PY(import torch


def offload(model, enabled: bool = False):
    if not enabled:
        return model
    return model.cpu()


def keep(model, flag=False):
    if not flag:
        model.eval()
    return model.cuda()
)PY");
  const auto* cpu = tr2audit::testing::call_at(f, 7, "cpu");
  REQUIRE(cpu);
  REQUIRE(cpu->ctx.branch >= 0);
  const auto& branch = f.branches[static_cast<std::size_t>(cpu->ctx.branch)];
  REQUIRE(branch.terms.size() == 1);
  CHECK(branch.terms.front().name == "enabled");
  CHECK_FALSE(branch.terms.front().negated);
  CHECK_FALSE(branch.else_side);
  // No return in the if: what follows runs either way.
  const auto* cuda = tr2audit::testing::call_at(f, 13, "cuda");
  REQUIRE(cuda);
  CHECK(cuda->ctx.branch < 0);
}

TEST_CASE("program: an early return on an option off by default makes the rest opt-in", "[program][variants]") {
  const char* const code = R"PY(import torch
from contextlib import contextmanager


def is_deepspeed_zero3_enabled():
    return False


@contextmanager
def gather(param):
    if not is_deepspeed_zero3_enabled():
        yield
        return
    import deepspeed
    with deepspeed.zero.GatheredParameters(param):
        yield


def seed_all(seed):
    if not torch.cuda.is_available():
        return
    torch.cuda.manual_seed_all(seed)


def offload(model, enabled: bool = False):
    if not enabled:
        return model
    return model.cpu()
)PY";
  const auto p = Repo{}.py("train.py", code).build();
  const auto id = *p.find_file("train.py");
  const auto& imports = p.file(id).imports;
  const auto ds = std::find_if(imports.begin(), imports.end(),
                               [](const facts::ImportFact& i) { return i.module.dotted() == "deepspeed"; });
  REQUIRE(ds != imports.end());
  CHECK((p.guards_at(id, ds->ctx) & facts::guard_bit(facts::Guard::opt_in)) != 0);
  CHECK(p.opt_in_option(id, ds->ctx) == "is_deepspeed_zero3_enabled()");
  // `if not torch.cuda.is_available(): return` guards the rest like an if on CUDA.
  const auto& seed = call_named(p, "train.py", "torch.cuda.manual_seed_all");
  CHECK((p.guards_at(id, seed.ctx) & facts::guard_bit(facts::Guard::cuda_available)) != 0);
  CHECK(option(p, "train.py", "cpu") == "enabled");
}

TEST_CASE("program: a parameter rebound before the branch is judged by its new value", "[program][variants]") {
  const char* const code = R"PY(import torch


def state_dict(model, fmt=None):
    if fmt is None:
        fmt = 2
    if fmt == 1:
        return model.half()
    if fmt == 2:
        return model.cuda()


def merge(layer, adapter_names=None):
    adapter_names = check_adapters(layer, adapter_names)
    if not adapter_names:
        return
    layer.weight.cpu()


def resume(path, checkpoint=None):
    if checkpoint:
        checkpoint = False
        torch.load(path)
)PY";
  const auto p = Repo{}.py("lib.py", code).build();
  CHECK(opt_in(p, "lib.py", "half"));  // 1 is neither the default nor the literal it is rebound to
  CHECK_FALSE(opt_in(p, "lib.py", "cuda"));
  CHECK_FALSE(opt_in(p, "lib.py", "cpu"));   // rebound to a computed value
  CHECK(opt_in(p, "lib.py", "torch.load"));  // rebound only inside the branch
}

namespace {

// HF-style attention dispatch: a table of implementations read by the config's key.
const char* const k_attention = R"PY(import torch


def get_ring():
    from lib.ring import ring_attention

    return ring_attention


def sdpa_forward(q, k, v):
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)


def flash_forward(q, k, v):
    return flash_attn_func(q, k, v).cuda()


ATTENTION = {
    "sdpa": sdpa_forward,
    "flash": flash_forward,
    "ring": lambda *a: get_ring()(*a),
}
)PY";

const char* const k_ring = R"PY(import torch


def ring_attention(q, k, v):
    return q.cuda() @ k.transpose(-1, -2) @ v
)PY";

const char* const k_model = R"PY(import torch

from lib.attention import ATTENTION

DEFAULT = "sdpa"


class Block(torch.nn.Module):
    def __init__(self, impl=DEFAULT):
        super().__init__()
        self.impl = impl

    def forward(self, q, k, v):
        if self.impl == "ring":
            q = q.contiguous()
        return ATTENTION[self.impl](q, k, v)
)PY";

Repo attention_repo() {
  return Repo{}.py("lib/attention.py", k_attention).py("lib/ring.py", k_ring).py("lib/model.py", k_model);
}

}  // namespace

TEST_CASE("facts: a module-level table of implementations and the names read by a computed key", "[facts][variants]") {
  const auto attention = facts_of(k_attention, "lib/attention.py");
  REQUIRE(attention.dispatch_entries.size() == 3);
  CHECK(attention.dispatch_entries[0].table == "ATTENTION");
  CHECK(attention.dispatch_entries[0].key == "sdpa");
  CHECK(attention.dispatch_entries[0].name == "sdpa_forward");
  CHECK(attention.dispatch_entries[2].key == "ring");
  CHECK(attention.dispatch_entries[2].name.empty());  // a lambda: its calls are what runs
  // The table's own keys are not name strings: they would select every entry.
  CHECK(std::find(attention.name_strings.begin(), attention.name_strings.end(), "flash") ==
        attention.name_strings.end());
  const auto model = facts_of(k_model, "lib/model.py");
  CHECK(model.computed_lookups == std::vector<FactString>{"ATTENTION"});
  // A string compared with the option tests for it; the default assigned to a constant names it.
  CHECK(std::find(model.name_strings.begin(), model.name_strings.end(), "ring") == model.name_strings.end());
  CHECK(std::find(model.name_strings.begin(), model.name_strings.end(), "sdpa") != model.name_strings.end());
  // Lower-case dicts, dicts with computed keys and one-entry dicts are data, not tables.
  const auto data =
      facts_of("cfg = {\"a\": f, \"b\": g}\nT = {\"a\": f}\nU = {k: f for k in ks}\nV = {\"x y\": f, \"z\": g}\n",
               "lib/data.py");
  CHECK(data.dispatch_entries.empty());
}

TEST_CASE("program: a dispatch-table entry no config selects is opt-in, through a lambda and a lazy import",
          "[program][variants]") {
  const auto p = attention_repo().build();
  CHECK(opt_in(p, "lib/attention.py", "cuda"));  // flash_forward: the "flash" entry
  CHECK(option(p, "lib/attention.py", "cuda") == "config selects flash");
  CHECK(opt_in(p, "lib/ring.py", "cuda"));  // reached only through the "ring" lambda's lazy import
  CHECK(option(p, "lib/ring.py", "cuda") == "config selects ring");
  CHECK_FALSE(opt_in(p, "lib/attention.py", "scaled_dot_product_attention"));  // the default

  // A shipped config that names an entry selects it.
  const auto q = attention_repo().config("configs/fast.yaml", "impl: flash\n").build();
  CHECK_FALSE(opt_in(q, "lib/attention.py", "cuda"));
  CHECK(opt_in(q, "lib/ring.py", "cuda"));

  // A table nothing reads by a computed key picks nothing by configuration: no gate.
  std::string literal = k_model;
  literal.replace(literal.find("ATTENTION[self.impl]"), 20, "ATTENTION[\"flash\"]");
  const auto r =
      Repo{}.py("lib/attention.py", k_attention).py("lib/ring.py", k_ring).py("lib/model.py", literal).build();
  CHECK_FALSE(opt_in(r, "lib/attention.py", "cuda"));
}

TEST_CASE("program::Program: a switch parameter that the repo's config files set false is opt-in", "[program]") {
  const char* const utils = R"PY(import torch


def get_model(model, compile: bool, task_type: str):
    if compile:
        model = torch.compile(model, dynamic=True)
    if task_type == "scienceqa":
        model.generate(prompt)
    return model
)PY";
  const auto off =
      Repo{}
          .py("bench/utils.py", utils)
          .config("bench/default_training_params.json", "{\"compile\": false, \"task_type\": \"CAUSAL_LM\"}")
          .build();
  CHECK(option(off, "bench/utils.py", "torch.compile") == "compile");
  // A compared name is no switch: an unrelated config key of the same name says nothing of it.
  CHECK_FALSE(opt_in(off, "bench/utils.py", "generate"));
  const auto on = Repo{}
                      .py("bench/utils.py", utils)
                      .config("bench/default_training_params.json", "{\"compile\": false}")
                      .config("bench/experiments/fast/training_params.json", "{\"compile\": true}")
                      .build();
  CHECK_FALSE(opt_in(on, "bench/utils.py", "torch.compile"));
}
