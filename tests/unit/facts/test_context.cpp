#include <algorithm>
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/facts/region.hpp"

using namespace tr2audit;
using tr2audit::testing::call_at;
using tr2audit::testing::facts_of;

namespace {

const char* const k_training_code = R"PY(import torch
import torch.nn as nn
import torch.nn.functional as F

class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        scores = self.proj(x)
        peak = scores.max().item()
        return F.softmax(scores, dim=-1)

def collate(batch):
    return torch.stack(batch)

@torch.no_grad()
def evaluate(model, loader):
    for batch in loader:
        acc = model(batch).mean().item()
    return acc

def train(model, loader, optimizer):
    for step, batch in enumerate(loader):
        loss = model(batch).sum()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(loss.item())
        running = loss.item()
)PY";

}  // namespace

TEST_CASE("facts::Context knows forward, functions, classes and loops", "[facts]") {
  const auto f = facts_of(k_training_code);
  const auto* item = call_at(f, 12, "item");
  REQUIRE(item);
  CHECK(facts::function_qualname(f, item->ctx) == "Attention.forward");
  CHECK(facts::class_name(f, item->ctx) == "Attention");
  CHECK(facts::region_of(f, item->ctx) == facts::Region::forward);
  CHECK(item->receiver_text == "scores.max()");
  CHECK(item->ctx.loop == -1);
}

TEST_CASE("facts::Context classifies the training loop, data pipeline and evaluation", "[facts]") {
  const auto f = facts_of(k_training_code);
  const auto* stack = call_at(f, 16, "torch.stack");
  REQUIRE(stack);
  CHECK(facts::region_of(f, stack->ctx) == facts::Region::data_pipeline);
  const auto* eval_item = call_at(f, 21, "item");
  REQUIRE(eval_item);
  CHECK(facts::region_of(f, eval_item->ctx) == facts::Region::evaluation);
  CHECK(eval_item->ctx.has(facts::Guard::no_grad));
  CHECK_FALSE(facts::in_training_loop(f, eval_item->ctx));
  const auto* logged = call_at(f, 30, "item");
  REQUIRE(logged);
  CHECK(facts::in_training_loop(f, logged->ctx));
  CHECK(logged->ctx.has(facts::Guard::periodic));
  CHECK(facts::region_of(f, logged->ctx) == facts::Region::training_step);
  const auto* running = call_at(f, 31, "item");
  REQUIRE(running);
  CHECK_FALSE(running->ctx.has(facts::Guard::periodic));
  CHECK(f.functions.back().calls_backward);
  CHECK(f.functions.back().calls_optimizer_step);
}

TEST_CASE("facts::Context marks module-level training loops in scripts", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "for it in range(max_iters):\n"
      "    logits, loss = model(X, Y)\n"
      "    lossf = loss.item()\n"
      "    loss.backward()\n"
      "    optimizer.step()\n");
  const auto* item = call_at(f, 4, "item");
  REQUIRE(item);
  CHECK(facts::in_training_loop(f, item->ctx));
  CHECK(facts::region_of(f, item->ctx) == facts::Region::training_step);
}

TEST_CASE("facts::Context sees ImportError fallbacks", "[facts]") {
  const auto f = facts_of(
      "try:\n"
      "    from flash_attn import flash_attn_func\n"
      "    HAS_FLASH = True\n"
      "except ImportError:\n"
      "    flash_attn_func = None\n"
      "import xformers\n");
  REQUIRE(f.imports.size() == 2);
  CHECK(f.imports[0].ctx.has(facts::Guard::import_error_fallback));
  CHECK_FALSE(f.imports[1].ctx.has(facts::Guard::import_error_fallback));
}

TEST_CASE("facts::Context marks the side of an if only a non-finite value takes", "[facts]") {
  // verl's critic update: the skipped step prints and zeroes the gradients; the normal side steps.
  const auto f = facts_of(
      "def update(self, loss, grad_norm):\n"
      "    if not torch.isfinite(grad_norm):\n"
      "        print(f\"WARN: grad_norm is not finite: {grad_norm}\")\n"
      "        self.optimizer.zero_grad()\n"
      "    else:\n"
      "        self.optimizer.step()\n"
      "    if torch.isnan(loss).any() or torch.isinf(loss).any():\n"
      "        log(loss)\n"
      "    if loss.isfinite().all():\n"
      "        report(loss)\n"
      "    else:\n"
      "        dump(loss)\n"
      "    if math.isinf(self.norm_type):\n"
      "        infinity_norm(grad_norm)\n"
      "    if torch.isinf(torch.tensor(norm_type)):\n"
      "        max_norm(grad_norm)\n");
  const auto guarded = [&](std::uint32_t line) {
    const auto* call = call_at(f, line);
    REQUIRE(call != nullptr);
    return call->ctx.has(facts::Guard::non_finite);
  };
  CHECK(guarded(3));        // print
  CHECK(guarded(4));        // zero_grad
  CHECK_FALSE(guarded(6));  // step
  CHECK(guarded(8));
  CHECK_FALSE(guarded(10));
  CHECK(guarded(12));  // the else side of a finite test
  // The infinity norm is an option, not a value gone bad.
  CHECK_FALSE(guarded(14));
  CHECK_FALSE(guarded(16));
}

TEST_CASE("facts::Context sees broad excepts only around imports", "[facts]") {
  const auto f = facts_of(
      "try:\n"
      "    import apex\n"
      "except Exception:\n"
      "    apex = None\n"
      "try:\n"
      "    torch.cuda.synchronize()\n"
      "except Exception:\n"
      "    pass\n");
  CHECK(f.imports[0].ctx.has(facts::Guard::import_error_fallback));
  CHECK_FALSE(f.calls[0].ctx.has(facts::Guard::import_error_fallback));
}

TEST_CASE("facts::Context sees CUDA-availability and device-type guards", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "if torch.cuda.is_available():\n"
      "    torch.cuda.manual_seed_all(0)\n"
      "else:\n"
      "    torch.manual_seed(0)\n"
      "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
      "if device.type == 'cuda':\n"
      "    torch.cuda.synchronize()\n"
      "torch.cuda.empty_cache()\n"
      "if args.use_cuda:\n"
      "    model.cuda()\n");
  CHECK(call_at(f, 3)->ctx.has(facts::Guard::cuda_available));
  CHECK(call_at(f, 5)->ctx.has(facts::Guard::cuda_available));
  CHECK_FALSE(call_at(f, 2)->ctx.has(facts::Guard::cuda_available));  // the probe itself
  REQUIRE_FALSE(f.devices.empty());
  CHECK(f.devices[0].value == "cuda");
  CHECK(f.devices[0].use == facts::DeviceUse::assignment);
  CHECK(f.devices[0].ctx.has(facts::Guard::cuda_available));
  CHECK(call_at(f, 8)->ctx.has(facts::Guard::device_branch));
  CHECK(call_at(f, 9)->ctx.guards == 0);
  CHECK(call_at(f, 11)->ctx.has(facts::Guard::cuda_available));
}

TEST_CASE("facts::Context marks test files, main blocks and step closures", "[facts]") {
  const auto t = facts_of("def test_forward():\n    assert model(x).sum().item() > 0\n", "tests/test_model.py", true);
  CHECK(facts::region_of(t, t.calls[0].ctx) == facts::Region::test);
  const auto f = facts_of(
      "import torch_xla.core.xla_model as xm\n"
      "def _log(loss):\n"
      "    print(loss.item())\n"
      "def train():\n"
      "    xm.add_step_closure(_log, args=(loss,))\n"
      "    xm.add_step_closure(lambda: print(loss.item()))\n"
      "if __name__ == '__main__':\n"
      "    train()\n");
  CHECK(call_at(f, 3, "item")->ctx.has(facts::Guard::step_closure));
  CHECK(call_at(f, 6, "item")->ctx.has(facts::Guard::step_closure));
  CHECK(call_at(f, 8)->ctx.has(facts::Guard::main_block));
}

TEST_CASE("facts::Context marks facts inside syntax-error regions", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "def broken(:\n"
      "    torch.cuda.synchronize()\n"
      "torch.cuda.empty_cache()\n");
  CHECK(f.has_syntax_errors);
  REQUIRE_FALSE(f.problems.empty());
  CHECK(f.problems[0].kind == ProblemKind::syntax_errors);
  CHECK(f.problems[0].line == 2);
  const auto* fine = call_at(f, 4);
  REQUIRE(fine);
  CHECK_FALSE(fine->ctx.in_error_region);
  CHECK(fine->callee.dotted() == "torch.cuda.empty_cache");
}

TEST_CASE("facts::Context marks facts inside assert statements", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "def forward(self, w, x):\n"
      "    assert (w > 0).all().item(), f'bad {x.sum().item()}'\n"
      "    return x * w.sum().item()\n");
  CHECK(call_at(f, 3, "item")->ctx.in_assert);
  const auto message = std::count_if(f.calls.begin(), f.calls.end(), [](const facts::CallFact& c) {
    return c.at.line == 3 && c.method == "item" && c.ctx.in_assert;
  });
  CHECK(message == 2);  // the condition's and the message's
  CHECK_FALSE(call_at(f, 4, "item")->ctx.in_assert);
}

TEST_CASE("facts::Extractor never turns strings or comments into facts", "[facts]") {
  const auto f = facts_of(
      "def sync():\n"
      "    \"\"\"Calls torch.cuda.synchronize() before timing.\"\"\"\n"
      "    # torch.cuda.synchronize()\n"
      "    msg = 'torch.cuda.synchronize()'\n"
      "    return msg\n");
  CHECK(f.calls.empty());
  CHECK(f.devices.empty());
}

TEST_CASE("facts::Context treats is_<lib>_available() checks as optional-dependency guards", "[facts]") {
  const auto f = facts_of(
      "from transformers.utils import is_bitsandbytes_available\n"
      "if is_bitsandbytes_available():\n"
      "    import bitsandbytes as bnb\n"
      "if torch.cuda.is_available():\n"
      "    import apex\n"
      "if mode == 'nvfp4' and cutlass_fp4_available():\n"  // a capability probe without `is_`
      "    import cutlass\n"
      "if dist.is_available():\n"  // not an optional package
      "    import deepspeed\n"
      "if gpu_available():\n"  // a device probe, not a package
      "    import xformers\n");
  REQUIRE(f.imports.size() == 6);
  CHECK(f.imports[1].ctx.has(facts::Guard::import_error_fallback));
  CHECK_FALSE(f.imports[2].ctx.has(facts::Guard::import_error_fallback));
  CHECK(f.imports[3].ctx.has(facts::Guard::import_error_fallback));
  CHECK_FALSE(f.imports[4].ctx.has(facts::Guard::import_error_fallback));
  CHECK_FALSE(f.imports[5].ctx.has(facts::Guard::import_error_fallback));
}

// Regression: Walker::enter_branch held a reference into the frame stack across push_frame, which
// can reallocate it (heap-use-after-free under ASan). The smallest input is a one-line `if`.
TEST_CASE("facts::Walker survives branch frames that reallocate the frame stack", "[facts]") {
  const auto f = tr2audit::testing::facts_of("if cuda:\n");
  CHECK(f.calls.empty());
  std::string deep = "import torch\n";
  for (int i = 0; i < 200; ++i)
    deep += std::string(static_cast<std::size_t>(i), ' ') + "if torch.cuda.is_available():\n";
  deep += std::string(200, ' ') + "torch.cuda.synchronize()\n";
  const auto g = tr2audit::testing::facts_of(deep);
  REQUIRE(g.calls.size() >= 1);
  CHECK(g.calls.back().ctx.has(tr2audit::facts::Guard::cuda_available));
}

TEST_CASE("facts::Walker records membership tests, torch constants, keyed reads and tuple bindings", "[facts]") {
  const auto f = facts_of(
      "import os\n"
      "STEP, VERBOSE = 0, os.environ.get('VERBOSE', '0') == '1'\n"
      "def build(cfg, config, w):\n"
      "    if cfg.ffn_type not in ('moe', 'dmoe'):\n"
      "        pass\n"
      "    if config['logging']['use_wandb']:\n"
      "        pass\n"
      "    if w.dtype == torch.uint8:\n"
      "        pass\n"
      "    if cfg.ffn_type in ('moe', some_name):\n"
      "        pass\n");
  REQUIRE(f.branches.size() >= 4);
  REQUIRE(f.branches[0].terms.size() == 1);
  REQUIRE(f.branches[1].terms.size() == 1);
  REQUIRE(f.branches[2].terms.size() == 1);
  const auto& member = f.branches[0].terms[0];
  CHECK(member.name == "cfg.ffn_type");
  CHECK(member.member);
  CHECK(member.negated);
  CHECK(member.equals == std::string("moe") + facts::k_member_separator + "dmoe");
  CHECK(f.branches[1].terms[0].name == "config.logging.use_wandb");
  CHECK(f.branches[2].terms[0].equals == "torch.uint8");
  CHECK(f.branches[3].terms.empty());  // a collection with a name in it says nothing
  const auto verbose = std::find_if(f.assigns.begin(), f.assigns.end(),
                                    [](const facts::AssignFact& a) { return a.target_text == "VERBOSE"; });
  REQUIRE(verbose != f.assigns.end());
  CHECK(verbose->value.value.view().find("environ.get") != std::string_view::npos);
}

TEST_CASE("facts::Walker reads a negative number as a literal", "[facts]") {
  const auto f = facts_of("parser.add_argument('--world-size', default=-1, type=int)\nscale = f(-0.5, -x)\n");
  REQUIRE(f.calls.size() >= 2);
  const auto& world = f.calls[0].args[1];
  CHECK(world.keyword == "default");
  CHECK(world.kind == facts::LiteralKind::integer);
  CHECK(world.value == "-1");
  const auto& scale = f.calls[1].args;
  REQUIRE(scale.size() == 2);
  CHECK(scale[0].kind == facts::LiteralKind::floating);
  CHECK(scale[1].kind == facts::LiteralKind::other);  // `-x` is no literal
}

TEST_CASE("facts::Walker reads a membership test on a name bound to a literal collection", "[facts]") {
  const auto f = facts_of(
      "KINDS = ['fused', 'fused_adam']\n"
      "def make(optimizer_cls, kind):\n"
      "    eight_bit = ('Adam8bit', 'PagedAdamW8bit')\n"
      "    if optimizer_cls.__name__ in eight_bit:\n"
      "        pass\n"
      "    if kind not in KINDS:\n"
      "        pass\n"
      "    eight_bit = load_names()\n"
      "    if optimizer_cls.__name__ in eight_bit:\n"
      "        pass\n"
      "def other(kind):\n"
      "    if kind in eight_bit:\n"
      "        pass\n");
  REQUIRE(f.branches.size() >= 2);
  const auto& local = f.branches[0].terms;
  REQUIRE(local.size() == 1);
  CHECK(local[0].member);
  CHECK(local[0].equals == std::string("Adam8bit") + facts::k_member_separator + "PagedAdamW8bit");
  const auto& module = f.branches[1].terms;
  REQUIRE(module.size() == 1);
  CHECK(module[0].negated);
  CHECK(module[0].equals == std::string("fused") + facts::k_member_separator + "fused_adam");
  // Rebound to a call's result: nothing is known; another function's local is not this one's.
  for (std::size_t i = 2; i < f.branches.size(); ++i)
    CHECK_FALSE(std::any_of(f.branches[i].terms.begin(), f.branches[i].terms.end(),
                            [](const facts::ConditionTerm& t) { return t.member; }));
}

TEST_CASE("facts::Walker records what holds after an early return of an and-condition and local env switches",
          "[facts]") {
  const auto f = facts_of(
      "import os\n"
      "def patch(cfg, x):\n"
      "    fold = os.environ.get('PTS_FOLD', '0') == '1'\n"
      "    path = os.environ.get('DATA_PATH', '/tmp')\n"
      "    if not cfg.quantize_experts and not cfg.fused_moe:\n"
      "        return\n"
      "    x.add_(1)\n"
      "def patch2(cfg, x):\n"
      "    if not cfg.quantize_experts and x.norm() > limit:\n"
      "        return\n"
      "    x.add_(1)\n");
  // The rest of `patch` runs when any conjunct fails: one any-of branch of the two negated terms.
  const auto after =
      std::find_if(f.branches.begin(), f.branches.end(), [](const facts::BranchInfo& b) { return b.any_of; });
  REQUIRE(after != f.branches.end());
  REQUIRE(after->terms.size() == 2);
  CHECK(after->terms[0].name == "cfg.quantize_experts");
  CHECK_FALSE(after->terms[0].negated);
  CHECK(after->terms[1].name == "cfg.fused_moe");
  CHECK_FALSE(after->terms[1].negated);
  // `x.norm() > limit` gives no term, so nothing is said about the rest of `patch2`.
  CHECK(std::count_if(f.branches.begin(), f.branches.end(), [](const facts::BranchInfo& b) { return b.any_of; }) == 1);
  // A function-local comparison of an environment read is kept; a plain read is not.
  const auto bound = [&](std::string_view name) {
    return std::any_of(f.assigns.begin(), f.assigns.end(),
                       [&](const facts::AssignFact& a) { return a.target_text == name; });
  };
  CHECK(bound("fold"));
  CHECK_FALSE(bound("path"));
}

TEST_CASE("facts::Walker keeps the terms of a conjunction with an or inside and no else side for them", "[facts]") {
  const auto f = facts_of(
      "def step(args, i, last, x):\n"
      "    if args.sample_every > 0 and (i % 10 == 0 or last):\n"
      "        x.add_(1)\n"
      "    else:\n"
      "        x.add_(2)\n"
      "    if not args.profile and i != last:\n"
      "        return\n"
      "    x.add_(3)\n");
  REQUIRE(f.branches.size() >= 3);
  // The then side: `args.sample_every > 0` holds wherever it runs, whatever the `or` says.
  REQUIRE(f.branches[0].terms.size() == 1);
  CHECK(f.branches[0].terms[0].name == "args.sample_every");
  CHECK(f.branches[0].terms[0].greater);
  // The else side runs when either conjunct fails, and one of them gave no term: it says nothing.
  // (The right operand of the `and` has a branch of its own, on the left's term.)
  const auto else_side =
      std::find_if(f.branches.begin(), f.branches.end(), [](const facts::BranchInfo& b) { return b.else_side; });
  REQUIRE(else_side != f.branches.end());
  CHECK(else_side->terms.empty());
  // After `if not args.profile and i != last: return` the rest runs at the last step whatever
  // `--profile` says: no branch is recorded for it.
  CHECK(std::none_of(f.branches.begin(), f.branches.end(), [](const facts::BranchInfo& b) {
    return b.terms.size() == 1 && b.terms[0].name == "args.profile" && !b.terms[0].negated;
  }));
}

TEST_CASE("facts::Walker reads a case-folded comparison as a test of the name itself", "[facts]") {
  const auto f = facts_of(
      "def build(args, p):\n"
      "    if args.optimizer.lower() == 'adam8bit':\n"
      "        p.add_(1)\n"
      "    if cfg['mode'].upper() in ('FUSED', 'FAST'):\n"
      "        p.add_(2)\n"
      "    if args.optimizer.strip() == 'adam':\n"
      "        p.add_(3)\n"
      "    if args.optimizer.lower(x) == 'adam':\n"
      "        p.add_(4)\n"
      "    if args.depth.lower() > 2:\n"
      "        p.add_(5)\n");
  REQUIRE(f.branches.size() == 5);
  REQUIRE(f.branches[0].terms.size() == 1);
  CHECK(f.branches[0].terms[0].name == "args.optimizer");
  CHECK(f.branches[0].terms[0].equals == "adam8bit");
  CHECK(f.branches[0].terms[0].folded);
  REQUIRE(f.branches[1].terms.size() == 1);
  CHECK(f.branches[1].terms[0].name == "cfg.mode");
  CHECK(f.branches[1].terms[0].member);
  CHECK(f.branches[1].terms[0].folded);
  // Any other method changes more than the case: the term stays the call, not folded.
  REQUIRE(f.branches[2].terms.size() == 1);
  CHECK(f.branches[2].terms[0].name == "args.optimizer.strip()");
  CHECK_FALSE(f.branches[2].terms[0].folded);
  REQUIRE(f.branches[3].terms.size() == 1);
  CHECK(f.branches[3].terms[0].name == "args.optimizer.lower()");
  // A folded name compared with anything but a string gives no term.
  CHECK(f.branches[4].terms.empty());
}

TEST_CASE("facts::Walker reads a local that holds a string form of an option as a test of the option", "[facts]") {
  const auto f = facts_of(
      "def create_optimizer(args, p, flag):\n"
      "    opt_lower = args.opt.lower()\n"
      "    if 'fused' in opt_lower:\n"
      "        p.add_(1)\n"
      "    opt_split = opt_lower.split('_')\n"
      "    opt_lower = opt_split[-1]\n"
      "    if opt_lower == 'fusedsgd':\n"
      "        p.add_(2)\n"
      "    if opt_split == 'x':\n"
      "        p.add_(3)\n"
      "    if flag:\n"
      "        mode = args.mode.lower()\n"
      "    if mode == 'fast':\n"
      "        p.add_(4)\n"
      "    opt_lower = build(opt_lower)\n"
      "    if opt_lower == 'adam':\n"
      "        p.add_(5)\n"
      "    if 'cuda' in args.device:\n"
      "        p.add_(6)\n");
  const auto term_at = [&](std::uint32_t line) -> const facts::ConditionTerm* {
    for (const auto& b : f.branches)
      if (b.at.line == line && b.terms.size() == 1) return &b.terms[0];
    return nullptr;
  };
  const facts::ConditionTerm* fused = term_at(3);
  REQUIRE(fused);
  CHECK(fused->name == "args.opt");
  CHECK(fused->contains);
  CHECK(fused->folded);
  CHECK(fused->equals == "fused");
  const facts::ConditionTerm* sgd = term_at(7);
  REQUIRE(sgd);
  CHECK(sgd->name == "args.opt");
  CHECK(sgd->equals == "fusedsgd");
  CHECK(sgd->folded);
  CHECK(sgd->split_separator == '_');
  CHECK(sgd->split_part == -1);
  // A split list compared with a string says nothing of the option.
  CHECK_FALSE(term_at(9));
  // A binding inside another branch does not hold where the branch may not have run.
  REQUIRE(term_at(13));
  CHECK(term_at(13)->name == "mode");
  // Rebound to anything else, the local is no longer the option.
  REQUIRE(term_at(16));
  CHECK(term_at(16)->name == "opt_lower");
  CHECK(term_at(16)->split_separator == 0);
  // `"cuda" in args.device`: what the option's string contains.
  REQUIRE(term_at(18));
  CHECK(term_at(18)->name == "args.device");
  CHECK(term_at(18)->contains);
}

TEST_CASE("facts::Walker reads a module-level table of defaults as one assignment per literal key", "[facts]") {
  const auto f = facts_of(
      "attn_config_defaults: dict = {\n"
      "    'attn_impl': 'flash',\n"
      "    'rope': False,\n"
      "    'rope_theta': 10000,\n"
      "    'rope_dail_config': {'type': 'original'},\n"
      "    'not a name': True,\n"
      "}\n"
      "ATTENTION_CLASSES = {'rope': False}\n"
      "def f():\n"
      "    local_defaults = {'rope': True}\n");
  std::vector<std::pair<std::string, std::string>> seen;
  for (const auto& assign : f.assigns) seen.emplace_back(assign.target.dotted().str(), assign.value.value.str());
  // Nested dicts and keys that are no names are left out; so are tables not named for defaults and
  // tables inside functions.
  CHECK(seen == std::vector<std::pair<std::string, std::string>>{{"attn_config_defaults.attn_impl", "flash"},
                                                                 {"attn_config_defaults.rope", "False"},
                                                                 {"attn_config_defaults.rope_theta", "10000"}});
  REQUIRE(!f.assigns.empty());
  CHECK(f.assigns[1].at.line == 3);
}

TEST_CASE("facts::Walker keeps a membership test on an imported name as a registry term", "[facts]") {
  const auto f = facts_of(
      "from llmfoundry.layers_registry import ffns_with_megablocks\n"
      "import registries\n"
      "def build(cfg, p, local_names):\n"
      "    if cfg['ffn_type'] in ffns_with_megablocks:\n"
      "        p.add_(1)\n"
      "    if cfg.norm not in registries.norms:\n"
      "        p.add_(2)\n"
      "    if cfg.norm in local_names:\n"
      "        p.add_(3)\n");
  REQUIRE(f.branches.size() == 3);
  REQUIRE(f.branches[0].terms.size() == 1);
  CHECK(f.branches[0].terms[0].name == "cfg.ffn_type");
  CHECK(f.branches[0].terms[0].equals == "llmfoundry.layers_registry.ffns_with_megablocks");
  CHECK(f.branches[0].terms[0].registry);
  CHECK(f.branches[0].terms[0].member);
  CHECK_FALSE(f.branches[0].terms[0].negated);
  REQUIRE(f.branches[1].terms.size() == 1);
  CHECK(f.branches[1].terms[0].equals == "registries.norms");
  CHECK(f.branches[1].terms[0].negated);
  // A parameter is no registry: nothing says what it holds.
  CHECK(f.branches[2].terms.empty());
}

TEST_CASE("facts::Walker puts the right operand of `and` under the left operand's terms", "[facts]") {
  const auto f = facts_of(
      "import random\n"
      "import torch\n"
      "def setup(args, x):\n"
      "    if args.fast_matmul and torch.cuda.get_device_capability()[0] >= 8:\n"
      "        x.add_(1)\n"
      "    if self_condition and random.random() < 0.5:\n"
      "        x.add_(2)\n");
  const auto call = std::find_if(f.calls.begin(), f.calls.end(), [](const facts::CallFact& c) {
    return c.callee.dotted() == "torch.cuda.get_device_capability";
  });
  REQUIRE(call != f.calls.end());
  REQUIRE(call->ctx.branch >= 0);
  const auto& branch = f.branches[static_cast<std::size_t>(call->ctx.branch)];
  REQUIRE(branch.terms.size() == 1);
  CHECK(branch.terms[0].name == "args.fast_matmul");
  // The detector's pattern on `self_condition and random.random() < 0.5` carries the left operand's branch.
  const auto pattern = std::find_if(f.patterns.begin(), f.patterns.end(),
                                    [](const facts::PatternFact& p) { return p.kind == "random-structure"; });
  REQUIRE(pattern != f.patterns.end());
  REQUIRE(pattern->ctx.branch >= 0);
  CHECK(f.branches[static_cast<std::size_t>(pattern->ctx.branch)].terms[0].name == "self_condition");
}

TEST_CASE("facts::Walker guards calls of a name the module binds to an optional library", "[facts]") {
  const auto f = facts_of(
      "flash_attn_varlen_func = None\n"
      "try:\n"
      "    from flash_attn import flash_attn_varlen_func as _f\n"
      "    flash_attn_varlen_func = _f\n"
      "    has_flash_attn = True\n"
      "except:  # noqa: E722\n"
      "    has_flash_attn = False\n"
      "try:\n"
      "    from flash_attn import flash_attn_func\n"
      "except ImportError:\n"
      "    print('install flash-attn')\n"
      "def attend(q, k, v):\n"
      "    return flash_attn_varlen_func(q, k, v) + flash_attn_func(q, k, v)\n");
  // The handler's comment does not hide that it is bare: the import is a fallback.
  REQUIRE_FALSE(f.imports.empty());
  CHECK(f.imports[0].ctx.has(facts::Guard::import_error_fallback));
  const auto call = [&](std::string_view text) {
    return std::find_if(f.calls.begin(), f.calls.end(),
                        [&](const facts::CallFact& c) { return c.callee_text == text; });
  };
  REQUIRE(call("flash_attn_varlen_func") != f.calls.end());
  CHECK(call("flash_attn_varlen_func")->ctx.has(facts::Guard::import_error_fallback));
  // Imported in a try that only prints: no fallback binding, so the call needs the library.
  REQUIRE(call("flash_attn_func") != f.calls.end());
  CHECK_FALSE(call("flash_attn_func")->ctx.has(facts::Guard::import_error_fallback));
}

TEST_CASE("facts::Walker takes a None fallback for an optional library only where the module tracks availability",
          "[facts]") {
  // flash-attention's own mha.py: `except ImportError: f = None`, then `assert f is not None` before use.
  const auto f = facts_of(
      "try:\n"
      "    from flash_attn import flash_attn_qkvpacked_func\n"
      "except ImportError:\n"
      "    flash_attn_qkvpacked_func = None\n"
      "def attend(qkv):\n"
      "    assert flash_attn_qkvpacked_func is not None, 'FlashAttention is not installed'\n"
      "    return flash_attn_qkvpacked_func(qkv)\n");
  const auto call = std::find_if(f.calls.begin(), f.calls.end(),
                                 [](const facts::CallFact& c) { return c.callee_text == "flash_attn_qkvpacked_func"; });
  REQUIRE(call != f.calls.end());
  CHECK_FALSE(call->ctx.has(facts::Guard::import_error_fallback));
}
