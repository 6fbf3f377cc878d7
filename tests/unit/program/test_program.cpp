// The repository model on small, real-looking training repos held in the test: entry points, roles
// along the call graph, reached_from chains, and guards only the whole repo can tell.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

const facts::CallFact& call_named(const facts::FileFacts& f, std::string_view method_or_callee,
                                  std::uint32_t line = 0) {
  for (const auto& c : f.calls) {
    const bool named =
        c.method == method_or_callee || c.callee.dotted() == method_or_callee || c.callee_text == method_or_callee;
    if (named && (line == 0 || c.at.line == line)) return c;
  }
  FAIL("no call " << method_or_callee);
  return f.calls.front();
}

program::Program repo(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<facts::FileFacts> facts;
  for (auto& [path, code] : files) facts.push_back(facts_of(code, path, path.rfind("tests/", 0) == 0));
  return program::Program::build(std::move(facts));
}

const char* const k_model = R"PY(import torch
from torch import nn


class Attention(nn.Module):
    def forward(self, x):
        return helper(x)


def helper(x):
    return x.sum().item()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x):
        return self.attn(x)


class KVCache:
    def update(self, k):
        return k.max().item()


class Decoder(nn.Module):
    def forward(self, x, kv_cache=None):
        if kv_cache is not None:
            x = x + kv_cache.update(x).item()
        if not self.training:
            x = x.nonzero()
        return x
)PY";

const char* const k_train = R"PY(import argparse
import torch
from model import Block


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--use_apex", action="store_true")
    p.add_argument("--attention", default="sdpa")
    return p.parse_args()


def evaluate(model, loader):
    return sum(model(x).sum().item() for x in loader)


def main():
    args = parse_args()
    model = Block()
    opt = torch.optim.AdamW(model.parameters())
    if args.use_apex:
        torch.cuda.synchronize()
    if args.attention == "flash":
        torch.cuda.synchronize()
    for step, x in enumerate(range(10)):
        loss = model(x).sum()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            evaluate(model, [])


if __name__ == "__main__":
    main()
)PY";

const char* const k_generate = R"PY(import torch
from model import Decoder


@torch.inference_mode()
def generate(model, x):
    return model(x).argmax().item()


if __name__ == "__main__":
    generate(Decoder(), torch.zeros(1))
)PY";

}  // namespace

TEST_CASE("program::Program finds training and inference entry points and gives roles along calls", "[program]") {
  const auto model = repo(
      {{"model.py", k_model}, {"train.py", k_train}, {"generate.py", k_generate}, {"tests/test_model.py", k_model}});
  const auto train = *model.find_file("train.py");
  const auto mdl = *model.find_file("model.py");
  bool training_entry = false, inference_entry = false;
  for (const auto& e : model.entry_points()) {
    training_entry |= e.role == program::Role::training_step && model.describe(e.function) == "train.py:main";
    inference_entry |= e.role == program::Role::inference && model.describe(e.function) == "generate.py:generate";
  }
  CHECK(training_entry);
  CHECK(inference_entry);
  CHECK(model.has_training_entry());

  // helper() is reached from the training run through Block -> Attention.forward: training forward.
  const auto& item = call_named(model.file(mdl), "item", 11);
  CHECK(model.region_at(mdl, item.ctx) == facts::Region::forward);
  CHECK(model.reached_from(mdl, item.ctx) == "train.py:main → model.py:Block.__init__ → Attention.forward → helper");
  // Decoder is only built by generate.py: its forward is inference, off the training path.
  const auto& decoder_nonzero = call_named(model.file(mdl), "nonzero");
  CHECK(model.region_at(mdl, decoder_nonzero.ctx) == facts::Region::inference);
  // evaluate() every N steps from the loop is training-eval.
  const auto& eval_item = call_named(model.file(train), "item");
  CHECK(model.region_at(train, eval_item.ctx) == facts::Region::evaluation);
  CHECK(model.roles_at(train, eval_item.ctx).test(static_cast<std::size_t>(program::Role::training_eval)));
}

TEST_CASE("program::CodeRoles keeps every function's roles and the facts, and nothing else", "[program]") {
  auto model = repo({{"model.py", k_model}, {"train.py", k_train}, {"generate.py", k_generate}});
  std::vector<std::pair<program::FunctionId, program::RoleSet>> expected;
  std::vector<std::pair<std::size_t, program::RoleSet>> expected_at;  // per call of every file, in order
  for (std::uint32_t f = 0; f < model.files().size(); ++f) {
    const program::FileId file{f};
    for (std::int32_t fn = -1; fn < static_cast<std::int32_t>(model.file(file).functions.size()); ++fn)
      expected.emplace_back(program::FunctionId{file, fn}, model.roles(program::FunctionId{file, fn}));
    for (const auto& call : model.file(file).calls) expected_at.emplace_back(f, model.roles_at(file, call.ctx));
  }
  const std::size_t calls_in_train = model.file(*model.find_file("train.py")).calls.size();
  const program::CodeRoles code(std::move(model));
  REQUIRE(code.files().size() == 3);
  CHECK(code.file(*code.find_file("train.py")).calls.size() == calls_in_train);
  CHECK_FALSE(code.find_file("missing.py"));
  for (const auto& [function, roles] : expected) CHECK(code.roles(function) == roles);
  std::size_t i = 0;
  for (std::uint32_t f = 0; f < code.files().size(); ++f) {
    for (const auto& call : code.file(program::FileId{f}).calls)
      CHECK(code.roles_at(program::FileId{f}, call.ctx) == expected_at[i++].second);
  }
  CHECK(i == expected_at.size());
  // The training step and the inference entry keep their roles apart.
  const auto train = *code.find_file("train.py");
  CHECK(code.roles_at(train, call_named(code.file(train), "backward").ctx)
            .test(static_cast<std::size_t>(program::Role::training_step)));
  const auto gen = *code.find_file("generate.py");
  CHECK(code.roles_at(gen, call_named(code.file(gen), "argmax").ctx)
            .test(static_cast<std::size_t>(program::Role::inference)));
}

TEST_CASE("program::Program tells opt-in options and availability flags from their defaults", "[program]") {
  const auto model = repo(
      {{"model.py", k_model},
       {"train.py", k_train},
       {"pkg/__init__.py", "x = 1\n"},
       {"pkg/compat.py", "try:\n    import apex\n    HAS_APEX = True\nexcept ImportError:\n    HAS_APEX = False\n"},
       {"pkg/norm.py",
        "import torch\nfrom .compat import HAS_APEX\n\n\ndef norm(x):\n"
        "    if HAS_APEX:\n        return apex.fused(x)\n    return x\n"}});
  const auto train = *model.find_file("train.py");
  const auto& apex_sync = call_named(model.file(train), "torch.cuda.synchronize", 22);
  CHECK((model.guards_at(train, apex_sync.ctx) & facts::guard_bit(facts::Guard::opt_in)) != 0);
  CHECK(model.opt_in_option(train, apex_sync.ctx) == "args.use_apex");
  const auto& flash_sync = call_named(model.file(train), "torch.cuda.synchronize", 24);
  CHECK(model.opt_in_option(train, flash_sync.ctx) == "args.attention == \"flash\"");
  const auto norm = *model.find_file("pkg/norm.py");
  const auto& fused = call_named(model.file(norm), "fused");
  CHECK((model.guards_at(norm, fused.ctx) & facts::guard_bit(facts::Guard::import_error_fallback)) != 0);
  CHECK((model.guards_at(norm, fused.ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0);
}

TEST_CASE("program::Program reads an environment variable the launcher copies an option into as that option",
          "[program]") {
  // RWKV-LM: train.py sets `os.environ["RWKV_MY_TESTING"] = args.my_testing`; the model tests the variable.
  const auto model =
      repo({{"train.py",
             "import argparse\nimport os\n\n\nif __name__ == \"__main__\":\n"
             "    parser = argparse.ArgumentParser()\n"
             "    parser.add_argument(\"--my_testing\", default=\"x052\", type=str)\n"
             "    parser.add_argument(\"--head_size\", default=64, type=int)\n"
             "    args = parser.parse_args()\n"
             "    os.environ[\"RWKV_MY_TESTING\"] = args.my_testing\n"
             "    os.environ[\"RWKV_HEAD\"] = str(args.head_size * 2)\n"
             "    import model\n"},
            {"model.py",
             "import os\n\n"
             "try:\n    print(os.environ[\"RWKV_MY_TESTING\"])\nexcept KeyError:\n    os.environ[\"RWKV_MY_TESTING\"] "
             "= \"\"\n\n"
             "if \"mamba\" in os.environ[\"RWKV_MY_TESTING\"]:\n    from mamba_ssm import Mamba\n    Mamba(16)\n"
             "if \"x052\" in os.environ[\"RWKV_MY_TESTING\"]:\n    build_x052()\n"
             "if os.environ[\"RWKV_HEAD\"] == \"256\":\n    build_wide()\n"}});
  const auto file = *model.find_file("model.py");
  const auto& mamba = call_named(model.file(file), "Mamba");
  CHECK(model.opt_in_option(file, mamba.ctx) ==
        "\"mamba\" in args.my_testing (through os.environ[\"RWKV_MY_TESTING\"])");
  // The default takes the x052 branch; a computed value (`str(args.head_size * 2)`) says nothing.
  const auto& x052 = call_named(model.file(file), "build_x052");
  CHECK((model.guards_at(file, x052.ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0);
  const auto& wide = call_named(model.file(file), "build_wide");
  CHECK((model.guards_at(file, wide.ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0);
}

TEST_CASE("program::Program tells a called name from an imported module", "[program]") {
  const auto model = repo({{"pkg/__init__.py", ""},
                           {"pkg/loader.py",
                            "from . import _C\nfrom .paths import determine_cuda_runtime_lib_path\n"
                            "from .cuda_setup.main import evaluate_cuda_setup\n\n\n"
                            "def load():\n    determine_cuda_runtime_lib_path()\n    evaluate_cuda_setup()\n"
                            "    return _C.forward(1)\n"}});
  const auto file = *model.find_file("pkg/loader.py");
  CHECK_FALSE(model.imports_callable(file, 0));  // `_C.forward`: an attribute of a module
  CHECK(model.imports_callable(file, 1));
  CHECK(model.imports_callable(file, 2));
  CHECK(model.origin(file, 0) == facts::ImportOrigin::local_missing);
  // Named like an extension, but called: judged by its module's name (`paths`, `main`), no extension.
  CHECK(model.origin(file, 1) == facts::ImportOrigin::external);
  CHECK(model.origin(file, 2) == facts::ImportOrigin::external);
}

TEST_CASE("program::Program keeps library code's own place when only tests reach it", "[program]") {
  const auto model =
      repo({{"lib/layers.py", k_model},
            {"tests/test_layers.py", "from lib.layers import Block\n\n\ndef test_block():\n    Block()(1)\n"}});
  const auto lib = *model.find_file("lib/layers.py");
  const auto& item = call_named(model.file(lib), "item", 11);
  CHECK(model.region_at(lib, item.ctx) == facts::Region::forward);
}

TEST_CASE("facts::Walker marks eval-mode and decoding branches as not-training", "[facts]") {
  const auto f = facts_of(k_model, "model.py");
  const auto& update = call_named(f, "item", 31);
  CHECK(update.ctx.has(facts::Guard::not_training));
  const auto& nonzero = call_named(f, "nonzero");
  CHECK(nonzero.ctx.has(facts::Guard::not_training));
  const auto g =
      facts_of("def forward(self, x):\n    if self.training:\n        return loss(x)\n    return x.nonzero()\n");
  CHECK(call_named(g, "nonzero").ctx.has(facts::Guard::not_training));
  CHECK_FALSE(call_named(g, "loss").ctx.has(facts::Guard::not_training));
}

TEST_CASE("program::Program follows module-level aliases without looping through base classes", "[program]") {
  // `B = A` makes `B.Inner` in A's own bases name A again: resolving it must not recurse forever.
  const auto model = repo({{"pkg/__init__.py", ""},
                           {"pkg/m.py",
                            "import torch\n\n\nclass A(B.Inner):\n    def forward(self, x):\n"
                            "        return x\n\n\nB = A\n"},
                           {"pkg/fn.py",
                            "import torch\n\n\nclass Scale(torch.autograd.Function):\n"
                            "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n\n"
                            "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n\n\n"
                            "scale = Scale.apply\n"},
                           {"train.py",
                            "import torch\nfrom pkg.fn import scale\n\n\ndef main(opt, x):\n"
                            "    loss = scale(x).sum()\n    loss.backward()\n    opt.step()\n"}});
  const auto fn = *model.find_file("pkg/fn.py");
  // `scale = Scale.apply`: calling the alias runs the Function's forward and its backward in training.
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(model.file(fn).functions.size()); ++i) {
    const program::FunctionId id{fn, i};
    INFO(model.file(fn).functions[static_cast<std::size_t>(i)].qualname.view());
    CHECK((model.roles(id) & program::training_roles()).any());
  }
}

TEST_CASE("program::Program keeps a vendored project's scripts out of the repo's entry points", "[program]") {
  const char* const k_loop =
      "import torch\n\n\ndef main(model, optimizer, x):\n    loss = model(x).sum()\n    loss.backward()\n    "
      "optimizer.step()\n\n\n"
      "if __name__ == \"__main__\":\n    main(None, None, None)\n";
  const auto model = repo({{"train.py",
                            "import torch\nfrom third_party.fastops.fastops.norm import norm\n\n\n"
                            "def main(model, optimizer, x):\n    loss = norm(model(x)).sum()\n    loss.backward()\n"
                            "    optimizer.step()\n\n\nif __name__ == \"__main__\":\n    main(None, None, None)\n"},
                           {"third_party/fastops/setup.py", "from setuptools import setup\nsetup(name=\"fastops\")\n"},
                           {"third_party/fastops/fastops/__init__.py", ""},
                           {"third_party/fastops/fastops/norm.py", "def norm(x):\n    return x\n"},
                           {"third_party/fastops/examples/finetune.py", k_loop},
                           {"csrc/ext/setup.py", "from setuptools import setup\nsetup(name=\"ext\")\n"},
                           {"csrc/ext/run_ext.py", k_loop}});
  const auto example = *model.find_file("third_party/fastops/examples/finetune.py");
  CHECK(model.vendored(example));
  CHECK(model.vendored(*model.find_file("third_party/fastops/setup.py")));
  CHECK_FALSE(model.vendored(*model.find_file("train.py")));
  CHECK_FALSE(model.vendored(*model.find_file("csrc/ext/run_ext.py")));  // a folder of the repo's own, not vendored
  bool repo_entry = false, vendored_entry = false, own_folder_entry = false;
  for (const auto& e : model.entry_points()) {
    repo_entry |= model.describe(e.function) == "train.py:main";
    vendored_entry |= e.function.file == example;
    own_folder_entry |= model.describe(e.function) == "csrc/ext/run_ext.py:main";
  }
  CHECK(repo_entry);
  CHECK_FALSE(vendored_entry);
  CHECK(own_folder_entry);
  // What the repo's own training code calls in the vendored project is training code all the same.
  const auto norm = *model.find_file("third_party/fastops/fastops/norm.py");
  CHECK((model.roles(program::FunctionId{norm, 0}) & program::training_roles()).any());
}

TEST_CASE("program::Program gives an unreached method the roles of its class's uses when they are all inference",
          "[program]") {
  const char* const predictor = R"PY(import torch


class Predictor:
    def __init__(self, model):
        self.device = torch.device("cuda")

    def __call__(self, image):
        return image.to(self.device)


class Engine:
    def __init__(self):
        self.device = torch.device("cuda")

    def predict(self, x):
        return x

    def train_step(self, batch):
        return batch.sum()
)PY";
  const char* const visualizer = R"PY(from lib.predictor import Predictor, Engine


class Visualizer:
    def __init__(self, model):
        self.predictor = Predictor(model)
        self.engine = Engine()

    def run_on_image(self, image):
        self.engine.predict(image)
        return self.predictor(image)
)PY";
  // The demo imports the visualizer by its monorepo path: the construction does not resolve, its method does.
  const char* const app = R"PY(from research.vision.demo.visualizer import Visualizer


def main():
    viz = Visualizer(None)
    viz.run_on_image(None)


if __name__ == "__main__":
    main()
)PY";
  const char* const train = R"PY(import torch
from lib.predictor import Engine

engine = make_engine()


def main():
    for batch in loader:
        loss = engine.train_step(batch)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
)PY";
  const auto model = repo({{"lib/__init__.py", ""},
                           {"lib/predictor.py", predictor},
                           {"demo/visualizer.py", visualizer},
                           {"demo/app.py", app},
                           {"train.py", train}});
  REQUIRE(model.has_training_entry());
  const auto lib = *model.find_file("lib/predictor.py");
  const auto& predictor_device = call_named(model.file(lib), "torch.device", 6);
  CHECK(model.region_at(lib, predictor_device.ctx) == facts::Region::inference);
  CHECK(model.roles_at(lib, predictor_device.ctx).test(static_cast<std::size_t>(program::Role::inference)));
  // Engine's predict serves the demo, but its train_step (linked by name only) runs in the training loop:
  // its __init__ stays unplaced.
  const auto& engine_device = call_named(model.file(lib), "torch.device", 14);
  CHECK(model.roles_at(lib, engine_device.ctx).none());
  CHECK(model.region_at(lib, engine_device.ctx) != facts::Region::inference);
}

TEST_CASE("program::Program takes a script that runs the trainer another of its functions builds as training",
          "[program]") {
  const char* const train = R"PY(from transformers import Trainer
from trl import DPOTrainer


def init_components(args, training_args):
    model = load_model(args)
    if args.task_type == "dpo":
        trainer = DPOTrainer(model, None, args=training_args)
    else:
        trainer = Trainer(model=model, args=training_args)
    return trainer


def main():
    args, training_args = setup_everything()
    trainer = init_components(args, training_args)
    train_result = trainer.train()
    trainer.save_model(training_args.output_dir)


if __name__ == "__main__":
    main()
)PY";
  // A script that only evaluates a trainer it is handed builds none: no training entry.
  const char* const evaluate = R"PY(def main(trainer):
    trainer.train()
)PY";
  const auto model = repo({{"train.py", train}, {"tools/resume.py", evaluate}});
  bool main_trains = false, resume_trains = false;
  for (const auto& e : model.entry_points()) {
    main_trains |= e.role == program::Role::training_step && model.describe(e.function) == "train.py:main";
    resume_trains |= e.role == program::Role::training_step && model.describe(e.function) == "tools/resume.py:main";
  }
  CHECK(main_trains);
  CHECK_FALSE(resume_trains);
  CHECK(model.has_training_entry());
}

TEST_CASE(
    "program::Program takes a probe an evaluation folder trains, and its heads, as inference when the repo "
    "trains elsewhere",
    "[program]") {
  const char* const train = R"PY(import torch


def main():
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
)PY";
  const char* const linear = R"PY(import torch


def eval_linear(features, labels, head, optimizer):
    for x, y in zip(features, labels):
        loss = torch.nn.functional.cross_entropy(head(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    eval_linear(*load())
)PY";
  const char* const head = R"PY(import torch


class SegHead(torch.nn.Module):
    def forward(self, x):
        return x[x.sum(-1) > 0]
)PY";
  const auto model = repo({{"pkg/train/train.py", train},
                           {"pkg/eval/linear.py", linear},
                           {"pkg/eval/seg/head.py", head},
                           {"pkg/__init__.py", ""}});
  bool train_entry = false, probe_trains = false;
  for (const auto& e : model.entry_points()) {
    train_entry |= e.role == program::Role::training_step && model.describe(e.function) == "pkg/train/train.py:main";
    probe_trains |= program::training_roles().test(static_cast<std::size_t>(e.role)) &&
                    model.describe(e.function).rfind("pkg/eval/", 0) == 0;
  }
  CHECK(train_entry);
  CHECK_FALSE(probe_trains);
  const auto probe = *model.find_file("pkg/eval/linear.py");
  const auto& step = call_named(model.file(probe), "step");
  CHECK(model.region_at(probe, step.ctx) == facts::Region::inference);
  const auto seg = *model.find_file("pkg/eval/seg/head.py");
  const auto& sum = call_named(model.file(seg), "sum");
  CHECK(model.region_at(seg, sum.ctx) == facts::Region::inference);

  // A repo whose only training is there keeps it.
  const auto only = repo({{"eval/linear.py", linear}});
  bool kept = false;
  for (const auto& e : only.entry_points()) kept |= e.role == program::Role::training_step;
  CHECK(kept);
}

TEST_CASE("program::Program takes a folder named for an evaluation suite as an evaluation place", "[program]") {
  const char* const train = R"PY(import torch


def main(model):
    optimizer = torch.optim.AdamW(model.parameters())
    for batch in range(10):
        loss = model(batch).sum()
        loss.backward()
        optimizer.step()
)PY";
  const char* const wrapper = R"PY(import torch


class ChatModel:
    def __init__(self, path):
        self.model = torch.load(path).eval().cuda()
)PY";
  for (const auto& [path, evaluation] :
       std::vector<std::pair<std::string, bool>>{{"eval_mm/vlmkit/models/chat_model.py", true},
                                                 {"evaluation_suite/chat_model.py", true},
                                                 {"models/chat_model.py", false},
                                                 {"medieval/chat_model.py", false}}) {
    const program::Program p = repo({{"train.py", train}, {path, wrapper}});
    const auto& f = p.file(program::FileId{1});
    CHECK(p.unreached_evaluation(program::FileId{1}, call_named(f, "cuda").ctx) == evaluation);
  }
}

TEST_CASE("program::Program links a worker-group call to the methods of the classes its receiver names", "[program]") {
  // Six classes define `init_model`, too many to link by name alone; `self.actor_rollout_wg` names the actor's.
  std::string workers;
  for (const char* klass : {"ActorRolloutRefWorker", "CriticWorker", "RewardModelWorker"}) {
    workers += std::string("class ") + klass + ":\n    def init_model(self):\n        torch.cuda.set_device(0)\n\n\n";
  }
  const char* const trainer = R"PY(import torch


class PPOTrainer:
    def __init__(self, groups):
        self.groups = groups

    def init_workers(self):
        all_wg = {}
        for pool in self.groups:
            all_wg.update(pool.spawn())
        self.actor_rollout_wg = all_wg["actor_rollout"]
        self.actor_rollout_wg.init_model()

    def fit(self, model, optimizer, batches):
        self.init_workers()
        for batch in batches:
            model(batch).sum().backward()
            optimizer.step()
)PY";
  const program::Program p = repo({{"trainer.py", trainer},
                                   {"workers/fsdp_workers.py", "import torch\n\n\n" + workers},
                                   {"workers/megatron_workers.py", "import torch\n\n\n" + workers}});
  for (const std::uint32_t f : {1u, 2u}) {
    const auto& file = p.file(program::FileId{f});
    for (const auto& call : file.calls) {
      if (call.method != "set_device") continue;
      const std::string_view owner = file.functions[static_cast<std::size_t>(call.ctx.function)].qualname;
      INFO(file.path << " " << owner);
      CHECK(p.roles_at(program::FileId{f}, call.ctx).any() == (owner == "ActorRolloutRefWorker.init_model"));
    }
  }
}
