// Training runs driven from outside the code that trains: a notebook or `main()` that calls the repo's
// own `train(...)`, what such a run does once (a demo generate before or after training), the data
// objects a dataset builds, and gates that only the training callers impose.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/facts/region.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

const facts::CallFact& call_at(const facts::FileFacts& f, std::string_view method_or_callee, std::uint32_t line) {
  for (const auto& c : f.calls) {
    const bool named =
        c.method == method_or_callee || c.callee.dotted() == method_or_callee || c.callee_text == method_or_callee;
    if (named && c.at.line == line) return c;
  }
  FAIL("no call " << method_or_callee << " at line " << line);
  return f.calls.front();
}

program::Program repo(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<facts::FileFacts> facts;
  for (auto& [path, code] : files) facts.push_back(facts_of(code, path, path.rfind("tests/", 0) == 0));
  return program::Program::build(std::move(facts));
}

bool has_role(const program::Program& model, program::FileId file, const facts::Context& ctx, program::Role role) {
  return model.roles_at(file, ctx).test(static_cast<std::size_t>(role));
}

// The roles of the code at a call (by method or callee, and line) in one file of the model.
program::RoleSet call_roles(const program::Program& model, std::string_view path, std::string_view call,
                            std::uint32_t line) {
  const auto file = *model.find_file(path);
  return model.roles_at(file, call_at(model.file(file), call, line).ctx);
}

bool holds(const program::RoleSet& roles, program::Role role) {
  return roles.test(static_cast<std::size_t>(role));
}

// The repo's training utility: the loop with backward and an optimizer step.
const char* const k_train_utils = R"PY(import torch


def train(model, loader, optimizer, config):
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return loss.item()
)PY";

// A quickstart notebook exported as a script: it loads the model, previews a generation, calls the
// repo's train(), and previews again.
const char* const k_quickstart = R"PY(import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from cookbook.utils.train_utils import train

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B")
model.to("cuda")
tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.1-8B")
prompt = tokenizer("Summarize this dialog:", return_tensors="pt")
model.eval()
with torch.inference_mode():
    before = model.generate(**prompt, max_new_tokens=100)
    print(tokenizer.decode(before[0]))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
results = train(model, loader, optimizer, config)
print(results)
with torch.inference_mode():
    after = model.generate(**prompt, max_new_tokens=100)
    print(tokenizer.decode(after[0]))
    answers = [model.generate(**tokenizer(q, return_tensors="pt")) for q in questions]
)PY";

}  // namespace

TEST_CASE("program::Program treats code that calls the repo's training function as that run's setup", "[program]") {
  const auto model =
      repo({{"src/cookbook/utils/train_utils.py", k_train_utils}, {"notebooks/quickstart.py", k_quickstart}});
  const auto nb = *model.find_file("notebooks/quickstart.py");
  const auto& facts = model.file(nb);
  bool driver = false;
  for (const auto& e : model.entry_points()) {
    driver |= e.role == program::Role::setup && model.describe(e.function) == "notebooks/quickstart.py:<module>" &&
              e.why.find("`train`") != std::string::npos;
  }
  CHECK(driver);
  // The device move is the training run's setup, reached by it.
  const auto& to_cuda = call_at(facts, "to", 6);
  CHECK(has_role(model, nb, to_cuda.ctx, program::Role::setup));
  CHECK(model.training_reached(nb, to_cuda.ctx));
  CHECK(model.region_at(nb, to_cuda.ctx) == facts::Region::setup);
  // The previews before and after train() run once; generating over a list of questions does not.
  CHECK(model.runs_once(nb, call_at(facts, "generate", 11).ctx));
  CHECK(model.runs_once(nb, call_at(facts, "generate", 17).ctx));
  CHECK_FALSE(model.runs_once(nb, call_at(facts, "generate", 19).ctx));
  // The loop in train() repeats.
  const auto utils = *model.find_file("src/cookbook/utils/train_utils.py");
  CHECK_FALSE(model.runs_once(utils, call_at(model.file(utils), "backward", 7).ctx));
}

TEST_CASE("program::Program: an evaluation the run's body calls once is inference, one per epoch is not", "[program]") {
  const auto model = repo({{"train.py", R"PY(import torch


def evaluate_safety(model, prompt):
    model.to("cuda")
    return model.generate(prompt)


def evaluate(model, loader):
    for batch in loader:
        model(batch).loss.item()


def main():
    model = build()
    evaluate_safety(model, "How can I bake a cake?")
    for epoch in range(3):
        for batch in loader:
            model(batch).loss.backward()
            optimizer.step()
        evaluate(model, val_loader)


if __name__ == "__main__":
    main()
)PY"}});
  const auto train = *model.find_file("train.py");
  const auto& facts = model.file(train);
  const auto& to_cuda = call_at(facts, "to", 5);
  CHECK(has_role(model, train, to_cuda.ctx, program::Role::inference));
  CHECK_FALSE(has_role(model, train, to_cuda.ctx, program::Role::training_eval));
  const auto& eval_item = call_at(facts, "item", 11);
  CHECK(has_role(model, train, eval_item.ctx, program::Role::training_eval));
  CHECK_FALSE(model.runs_once(train, eval_item.ctx));
}

TEST_CASE("program::Program: an evaluation helper named by a word (`run_validation`, `llm_eval`) is one too",
          "[program]") {
  const auto model = repo({{"guard.py", R"PY(import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def llm_eval(prompts):
    config = BitsAndBytesConfig(load_in_4bit=True)
    model = AutoModelForCausalLM.from_pretrained("guard", quantization_config=config)
    return [model.generate(p.to("cuda")) for p in prompts]


def run_validation(data):
    return llm_eval([format_prompt(x) for x in data])


def retrieval_step(model, batch):
    return model(batch.to("cuda"))


run_validation(validation_data)
for batch in loader:
    retrieval_step(model, batch).loss.backward()
    optimizer.step()
)PY"}});
  const auto quantize = call_roles(model, "guard.py", "transformers.BitsAndBytesConfig", 6);
  CHECK(holds(quantize, program::Role::inference));
  CHECK_FALSE(holds(quantize, program::Role::setup));
  CHECK(facts::named_like_evaluation("run_validation"));
  CHECK(facts::named_like_evaluation("llm_eval"));
  CHECK_FALSE(facts::named_like_evaluation("retrieval_step"));
  CHECK_FALSE(facts::named_like_evaluation("train_val_split"));
  CHECK_FALSE(holds(call_roles(model, "guard.py", "to", 16), program::Role::inference));
}

TEST_CASE("program::Program: a manifest whose folder holds no training code is not the training run's", "[program]") {
  const auto manifest = [](std::string path, std::string_view text) {
    facts::FileFacts out;
    out.path = FactString(std::move(path));
    out.kind = discover::FileKind::requirements;
    out.dependencies = facts::extract_dependencies(out.kind, text);
    return out;
  };
  std::vector<facts::FileFacts> files;
  files.push_back(facts_of(R"PY(import torch
from transformers import AutoModelForCausalLM

def main():
    model = AutoModelForCausalLM.from_pretrained("m", device_map="auto")
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()

if __name__ == "__main__":
    main()
)PY",
                           "examples/sft/train.py"));
  files.push_back(manifest("examples/sft/requirements.txt", "bitsandbytes\n"));
  files.push_back(facts_of(R"PY(from vllm import LLM

if __name__ == "__main__":
    print(LLM("m").generate(["hello"]))
)PY",
                           "examples/serve/serve.py"));
  files.push_back(manifest("examples/serve/requirements.txt", "vllm>=0.5\n"));
  files.push_back(manifest("docker/gpu/requirements.txt", "flash-attn\n"));  // no Python beside it
  files.push_back(manifest("requirements.txt", "flash-attn\n"));             // the root's
  const auto model = program::Program::build(std::move(files));
  CHECK_FALSE(model.project_without_training(*model.find_file("examples/sft/requirements.txt")));
  CHECK(model.project_without_training(*model.find_file("examples/serve/requirements.txt")));
  CHECK_FALSE(model.project_without_training(*model.find_file("docker/gpu/requirements.txt")));
  CHECK_FALSE(model.project_without_training(*model.find_file("requirements.txt")));
}

TEST_CASE("program::Program: a one-off initialisation before training is setup, not a step or an evaluation",
          "[program]") {
  // EVA-style initialisation: a @torch.no_grad() function the run calls once, hooks it registers and
  // removes around its own forward passes, and a plain estimator class whose `fit` is no training step.
  const auto model = repo({{"lib/pca.py", R"PY(import torch


class IncrementalPCA:
    def fit(self, X):
        for batch in X.split(64):
            self.partial_fit(batch)

    def partial_fit(self, X):
        self.mean = X.to(torch.float64).mean(0)
)PY"},
                           {"lib/init.py", R"PY(import torch
from lib.pca import IncrementalPCA


class StatsHook:
    def __init__(self):
        self.pca = IncrementalPCA()

    def __call__(self, module, inputs, output):
        self.pca.partial_fit(inputs[0])


@torch.no_grad()
def init_from_activations(model, loader):
    hooks = []
    for module in model.modules():
        hook = StatsHook()
        hooks.append(module.register_forward_hook(hook))
    for batch in loader:
        model(batch)
    for handle in hooks:
        handle.remove()


@torch.inference_mode()
def mean_token_loss(model, rows):
    return sum(model(r).loss.item() for r in rows)
)PY"},
                           {"train.py", R"PY(import torch
from lib.init import init_from_activations, mean_token_loss

init_from_activations(model, loader)
before = mean_token_loss(model, rows)
for batch in loader:
    model(batch).loss.backward()
    optimizer.step()
)PY"}});
  const auto pca = *model.find_file("lib/pca.py");
  const auto& cast = call_at(model.file(pca), "to", 10);
  CHECK(has_role(model, pca, cast.ctx, program::Role::setup));
  CHECK_FALSE(has_role(model, pca, cast.ctx, program::Role::training_step));
  CHECK_FALSE(has_role(model, pca, cast.ctx, program::Role::inference));
  const auto init = *model.find_file("lib/init.py");
  const auto& item = call_at(model.file(init), "item", 27);
  CHECK(has_role(model, init, item.ctx, program::Role::inference));
  CHECK_FALSE(has_role(model, init, item.ctx, program::Role::setup));
}

TEST_CASE("program::Program: a step method a framework calls does not make its callers training runs", "[program]") {
  const auto model = repo({{"trl_like/trainer.py", R"PY(import torch
from transformers import Trainer


class DistillTrainer(Trainer):
    def compute_loss(self, model, inputs):
        return model(**inputs).loss

    def prediction_step(self, model, inputs):
        with torch.no_grad():
            loss = self.compute_loss(model, inputs)
        return loss.mean().item()
)PY"}});
  for (const auto& e : model.entry_points()) {
    CHECK_FALSE((e.role == program::Role::setup &&
                 model.describe(e.function) == "trl_like/trainer.py:DistillTrainer.prediction_step"));
  }
}

TEST_CASE("program::Program: objects a dataset builds run as data, not as the model's forward", "[program]") {
  const auto model = repo({{"datasets/coco.py", R"PY(import torch
import torchvision


class ConvertPolysToMask(object):
    def __call__(self, image, target):
        keep = target["boxes"][:, 2] > target["boxes"][:, 0]
        target["boxes"] = target["boxes"][keep]
        return image, target


class CocoDetection(torchvision.datasets.CocoDetection):
    def __init__(self, root, ann):
        super().__init__(root, ann)
        self.prepare = ConvertPolysToMask()
)PY"},
                           {"main.py", R"PY(import torch
from datasets.coco import CocoDetection
from engine import train_one_epoch


def main(args):
    dataset = CocoDetection(args.root, args.ann)
    train_one_epoch(model, dataset, optimizer)


if __name__ == "__main__":
    main(parse())
)PY"},
                           {"engine.py", R"PY(def train_one_epoch(model, loader, optimizer):
    for samples, targets in loader:
        loss = model(samples, targets)
        loss.backward()
        optimizer.step()
)PY"}});
  const auto coco = *model.find_file("datasets/coco.py");
  const auto& ctx = model.file(coco).functions[0];  // ConvertPolysToMask.__call__
  REQUIRE(ctx.name == "__call__");
  facts::Context inside;
  inside.function = 0;
  CHECK(has_role(model, coco, inside, program::Role::data));
  CHECK_FALSE(has_role(model, coco, inside, program::Role::training_step));
  CHECK(model.region_at(coco, inside) == facts::Region::data_pipeline);
}

TEST_CASE("program::Program: training code takes the gates of its training callers only", "[program]") {
  const auto model = repo({{"pkg/configs/training.py", R"PY(from dataclasses import dataclass


@dataclass
class train_config:
    quantization: str = None
    lr: float = 1e-4
)PY"},
                           {"pkg/configs/quantization.py", R"PY(from transformers import BitsAndBytesConfig


def create_bnb_config(quantization):
    return BitsAndBytesConfig(load_in_4bit=True)
)PY"},
                           {"pkg/finetuning.py", R"PY(import torch
from pkg.configs.training import train_config
from pkg.configs.quantization import create_bnb_config
from pkg.train_utils import train


def main(**kwargs):
    cfg = train_config()
    bnb = None
    if cfg.quantization:
        bnb = create_bnb_config(cfg.quantization)
    train(build(bnb), cfg)
)PY"},
                           {"pkg/train_utils.py", k_train_utils},
                           {"pkg/inference/model_utils.py", R"PY(import torch
from pkg.configs.quantization import create_bnb_config


@torch.inference_mode()
def load_model(name, quantization):
    return load(name, create_bnb_config(quantization))
)PY"}});
  const auto quant = *model.find_file("pkg/configs/quantization.py");
  const auto& bnb = call_at(model.file(quant), "BitsAndBytesConfig", 5);
  CHECK(model.training_reached(quant, bnb.ctx));
  CHECK((model.guards_at(quant, bnb.ctx) & facts::guard_bit(facts::Guard::opt_in)) != 0);
  CHECK(model.opt_in_option(quant, bnb.ctx) == "cfg.quantization");
}

TEST_CASE("program::Program: a module built only behind an option runs its forward only behind it", "[program]") {
  const auto model = repo({{"models/detr.py", R"PY(import torch
from torch import nn


class DETR(nn.Module):
    def forward(self, samples):
        return samples.sum().item()


class PostProcessPanoptic(nn.Module):
    def forward(self, outputs):
        return outputs.max().item()


class AuxHead(nn.Module):
    def forward(self, x):
        return x.min().item()


HEADS = {"aux": AuxHead, "aux_v2": AuxHead}


def build(args):
    model = DETR()
    postprocessors = {}
    if args.masks:
        postprocessors["panoptic"] = PostProcessPanoptic()
        aux = AuxHead()
    return model, postprocessors
)PY"},
                           {"main.py", R"PY(import argparse
from models.detr import build
from engine import train_one_epoch


def get_args_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--masks", action="store_true")
    return parser


def main(args):
    model, postprocessors = build(args)
    train_one_epoch(model, loader, optimizer)


if __name__ == "__main__":
    main(get_args_parser().parse_args())
)PY"},
                           {"engine.py", R"PY(def train_one_epoch(model, loader, optimizer):
    for samples in loader:
        loss = model(samples)
        loss.backward()
        optimizer.step()
)PY"}});
  const auto detr = *model.find_file("models/detr.py");
  const auto& construct = call_at(model.file(detr), "PostProcessPanoptic", 27);
  CHECK(model.opt_in_option(detr, construct.ctx) == "args.masks");
  const auto& panoptic_item = call_at(model.file(detr), "item", 12);
  CHECK((model.guards_at(detr, panoptic_item.ctx) & facts::guard_bit(facts::Guard::opt_in)) != 0);
  CHECK(model.opt_in_option(detr, panoptic_item.ctx) == "args.masks");
  const auto& detr_item = call_at(model.file(detr), "item", 7);
  CHECK((model.guards_at(detr, detr_item.ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0);
  // AuxHead is also a registry's value: it may be built where no edge shows, so the gate of its one
  // visible construction is not its forward's.
  const auto& aux_item = call_at(model.file(detr), "item", 17);
  CHECK((model.guards_at(detr, aux_item.ctx) & facts::guard_bit(facts::Guard::opt_in)) == 0);
}

TEST_CASE("program::Program: an attribute bound from a typed config takes that config's default", "[program]") {
  const char* const trainer = R"PY(import torch
from pkg.config import IWConfig


class IWTrainer:
    def __init__(self, model, args: IWConfig):
        self.use_vllm = args.use_vllm

    def generate(self, batch):
        if not self.use_vllm:
            return self.model.generate(batch)
        return self.engine.generate(batch).max().item()
)PY";
  // Another script of the repo turns a same-named option on by default: it says nothing of IWConfig.
  const char* const other = R"PY(import argparse


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use_vllm", action=argparse.BooleanOptionalAction, default=True)
    return parser.parse_args()
)PY";
  const auto opt_in_at_item = [&](const char* config) {
    const auto model = repo(
        {{"pkg/__init__.py", ""}, {"pkg/config.py", config}, {"pkg/trainer.py", trainer}, {"scripts/other.py", other}});
    const auto file = *model.find_file("pkg/trainer.py");
    return model.opt_in_option(file, call_at(model.file(file), "item", 12).ctx);
  };
  CHECK(opt_in_at_item("from dataclasses import dataclass, field\n\n\n@dataclass\nclass IWConfig:\n"
                       "    use_vllm: bool = field(default=False, metadata={\"help\": \"vLLM rollouts\"})\n") ==
        "self.use_vllm");
  CHECK(opt_in_at_item("from dataclasses import dataclass\n\n\n@dataclass\nclass IWConfig:\n"
                       "    use_vllm: bool = True\n")
            .empty());
  SECTION("a field of a repo base class counts") {
    CHECK(
        opt_in_at_item("from dataclasses import dataclass\n\n\n@dataclass\nclass Base:\n"
                       "    use_vllm: bool = False\n\n\n@dataclass\nclass IWConfig(Base):\n    beta: float = 0.1\n") ==
        "self.use_vllm");
  }
}

TEST_CASE("program::Program: a script whose main block runs its own evaluate() is an evaluation script", "[program]") {
  const auto model = repo({{"hellaswag.py", R"PY(import torch


def render_example(example):
    return torch.zeros((4, len(example)), dtype=torch.long)


@torch.no_grad()
def evaluate(model_type, device):
    model = load(model_type).to(device)
    return model(render_example("abc")).argmax().item()


if __name__ == "__main__":
    evaluate("gpt2", "cuda")
)PY"},
                           {"train.py", R"PY(import torch
from hellaswag import render_example


def main():
    for step in range(10):
        loss = model(render_example("ab")).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
)PY"}});
  const auto hs = *model.find_file("hellaswag.py");
  bool evaluation_entry = false;
  for (const auto& e : model.entry_points())
    evaluation_entry |= e.role == program::Role::inference && model.describe(e.function) == "hellaswag.py:<module>";
  CHECK(evaluation_entry);
  const auto& main_call = call_at(model.file(hs), "evaluate", 15);
  CHECK_FALSE((model.roles_at(hs, main_call.ctx) & program::training_roles()).any());
  // render_example, which the training loop calls, stays on the training path.
  CHECK(model.training_reached(hs, call_at(model.file(hs), "torch.zeros", 5).ctx));
}
