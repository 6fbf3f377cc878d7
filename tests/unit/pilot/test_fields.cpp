// The pilot request's fields on realistic fine-tuning code: an alpaca-lora style script (function
// parameter defaults feeding TrainingArguments), an argparse + hand-written loop script (nanoGPT
// style module constants), and a YAML config (torchtune style). Every field is checked with its value
// and its path:line.
#include <catch2/catch.hpp>

#include "unit/pilot/pilot_test_support.hpp"

using namespace tr2audit;
using pilot::Field;
using testing::pilot_of;
using testing::value_named;

namespace {

/// 1-based line of the first line containing needle.
std::uint32_t line_of(std::string_view code, std::string_view needle) {
  const auto at = code.find(needle);
  REQUIRE(at != std::string_view::npos);
  return static_cast<std::uint32_t>(std::count(code.begin(), code.begin() + static_cast<long>(at), '\n') + 1);
}

std::string at(std::string_view path, std::string_view code, std::string_view needle) {
  return std::string(path) + ":" + std::to_string(line_of(code, needle));
}

constexpr std::string_view k_lora = R"PY(import fire
import torch
import transformers
from datasets import load_dataset
from peft import LoraConfig, get_peft_model
from transformers import LlamaForCausalLM, LlamaTokenizer


def train(
    base_model: str = "huggyllama/llama-7b",
    batch_size: int = 128,
    micro_batch_size: int = 4,
    num_epochs: int = 3,
    cutoff_len: int = 256,
    lora_r: int = 8,
):
    gradient_accumulation_steps = batch_size // micro_batch_size
    model = LlamaForCausalLM.from_pretrained(base_model, torch_dtype=torch.float16)
    tokenizer = LlamaTokenizer.from_pretrained(base_model)

    def tokenize(prompt):
        return tokenizer(prompt, truncation=True, max_length=cutoff_len, padding=False)

    config = LoraConfig(r=lora_r, lora_alpha=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    data = load_dataset("json", data_files="alpaca.json")
    trainer = transformers.Trainer(
        model=model,
        train_dataset=data["train"],
        args=transformers.TrainingArguments(
            per_device_train_batch_size=micro_batch_size,
            gradient_accumulation_steps=gradient_accumulation_steps,
            num_train_epochs=num_epochs,
            fp16=True,
            logging_steps=10,
            save_steps=200,
            eval_steps=200,
            output_dir="./lora-alpaca",
        ),
        data_collator=transformers.DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8, return_tensors="pt", padding=True),
    )
    trainer.train(resume_from_checkpoint=None)
    model.save_pretrained("./lora-alpaca")


if __name__ == "__main__":
    fire.Fire(train)
)PY";

}  // namespace

TEST_CASE("pilot fields: LoRA fine-tune with parameter defaults and TrainingArguments", "[pilot]") {
  const auto facts = pilot_of({{{"finetune.py", std::string(k_lora)}}, {}, {}, {}});
  const auto path = "finetune.py";

  SECTION("model: from_pretrained resolved through the parameter default, and the family") {
    const auto* load = value_named(facts, Field::model, "LlamaForCausalLM.from_pretrained");
    REQUIRE(load);
    CHECK(load->value == "huggyllama/llama-7b (base_model, " + at(path, k_lora, "base_model: str") + ")");
    CHECK(load->where == at(path, k_lora, "LlamaForCausalLM.from_pretrained"));
    const auto* family = value_named(facts, Field::model, "family");
    REQUIRE(family);
    CHECK(family->value == "llama");
  }
  SECTION("method: lora from the PEFT calls, rank resolved") {
    const auto& method = testing::field(facts, Field::method);
    REQUIRE_FALSE(method.found.empty());
    CHECK(method.found.front().name == "method");
    CHECK(method.found.front().value == "lora");
    CHECK(method.found.front().where == at(path, k_lora, "LoraConfig(r="));
    const auto* r = value_named(facts, Field::method, "r");
    REQUIRE(r);
    CHECK(r->value == "8 (lora_r, " + at(path, k_lora, "lora_r: int") + ")");
  }
  SECTION("input length: the tokenizer's max_length resolved to cutoff_len") {
    const auto* length = value_named(facts, Field::input_length, "max_length");
    REQUIRE(length);
    CHECK(length->value == "256 (cutoff_len, " + at(path, k_lora, "cutoff_len: int") + ")");
    CHECK(length->where == at(path, k_lora, "return tokenizer("));
  }
  SECTION("batch: per-device batch, gradient accumulation") {
    const auto* micro = value_named(facts, Field::batch, "per_device_train_batch_size");
    REQUIRE(micro);
    CHECK(micro->value == "4 (micro_batch_size, " + at(path, k_lora, "micro_batch_size: int") + ")");
    CHECK(micro->where == at(path, k_lora, "per_device_train_batch_size="));
    const auto* accum = value_named(facts, Field::batch, "gradient_accumulation_steps");
    REQUIRE(accum);
    CHECK(accum->where == at(path, k_lora, "gradient_accumulation_steps=gradient"));
  }
  SECTION("expected steps: epochs from TrainingArguments") {
    const auto* epochs = value_named(facts, Field::expected_steps, "num_train_epochs");
    REQUIRE(epochs);
    CHECK(epochs->value == "3 (num_epochs, " + at(path, k_lora, "num_epochs: int") + ")");
  }
  SECTION("save interval: save_steps and the save call") {
    const auto* save = value_named(facts, Field::save_interval, "save_steps");
    REQUIRE(save);
    CHECK(save->value == "200");
    CHECK(save->where == at(path, k_lora, "save_steps="));
  }
  SECTION("eval: eval_steps") {
    const auto* eval = value_named(facts, Field::eval_metric, "eval_steps");
    REQUIRE(eval);
    CHECK(eval->where == at(path, k_lora, "eval_steps="));
  }
  SECTION("precision: fp16 from the training setup first") {
    const auto& precision = testing::field(facts, Field::precision);
    REQUIRE_FALSE(precision.found.empty());
    CHECK(precision.found.front().value == "fp16");
  }
  SECTION("parallelism: not found, with the single-device hint") {
    const auto& parallel = testing::field(facts, Field::parallelism);
    CHECK(parallel.found.empty());
    CHECK_THAT(parallel.hint, Catch::Contains("single-device"));
  }
  SECTION("checks: checkpoints written, resume path from resume_from_checkpoint, location from output_dir") {
    const auto& resume = testing::check(facts, "checkpoint-resume");
    CHECK(resume.status == pilot::CheckStatus::pass);
    CHECK_THAT(resume.detail, Catch::Contains("output_dir = \"./lora-alpaca\""));
    const auto& logging = testing::check(facts, "step-logging");
    CHECK(logging.status == pilot::CheckStatus::pass);  // the Trainer logs every logging_steps
    CHECK(testing::check(facts, "compile-cache").status == pilot::CheckStatus::fail);
  }
}

namespace {

constexpr std::string_view k_loop = R"PY(import argparse
import os
import torch

block_size = 1024
max_iters = 600000
eval_interval = 2000
always_save_checkpoint = True
dtype = 'bfloat16'

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=12)
parser.add_argument("--gradient_accumulation_steps", type=int, default=40)
parser.add_argument("--compile", action="store_true")
args = parser.parse_args()
os.environ["NEURON_CC_FLAGS"] = "--cache_dir=/shared/neuron-cache --model-type transformer"


def main(model, optimizer, loader):
    for iter_num, (x, y) in enumerate(loader):
        logits, loss = model(x, y)
        loss.backward()
        optimizer.step()
        if iter_num % eval_interval == 0:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "ckpt.pt")
        if iter_num % 10 == 0:
            print(f"iter {iter_num}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main(None, None, [])
)PY";

}  // namespace

TEST_CASE("pilot fields: hand-written loop with module constants and argparse", "[pilot]") {
  const auto facts = pilot_of({{{"train.py", std::string(k_loop)}}, {}, {}, {}});
  const auto path = "train.py";
  CHECK(value_named(facts, Field::input_length, "block_size")->where == at(path, k_loop, "block_size = 1024"));
  const auto* batch = value_named(facts, Field::batch, "batch_size");
  REQUIRE(batch);
  CHECK(batch->value == "12");
  CHECK(batch->where == at(path, k_loop, "--batch-size"));
  CHECK(value_named(facts, Field::batch, "gradient_accumulation_steps")->value == "40");
  CHECK(value_named(facts, Field::expected_steps, "max_iters")->value == "600000");
  const auto* periodic = value_named(facts, Field::save_interval, "torch.save");
  REQUIRE(periodic);
  CHECK(periodic->where == at(path, k_loop, "torch.save("));
  CHECK(value_named(facts, Field::eval_metric, "eval_interval")->value == "2000");
  CHECK(value_named(facts, Field::precision, "precision")->value == "bf16");
  CHECK(testing::check(facts, "compile-cache").status == pilot::CheckStatus::pass);
  CHECK(testing::check(facts, "compile-cache").where.front() == at(path, k_loop, "os.environ["));
  CHECK(testing::check(facts, "step-logging").status == pilot::CheckStatus::pass);
  // No resume path: the run saves but cannot continue after a failure.
  CHECK(testing::check(facts, "checkpoint-resume").status == pilot::CheckStatus::fail);
  CHECK_THAT(testing::check(facts, "checkpoint-resume").detail, Catch::Contains("no resume path"));
}

TEST_CASE("pilot fields: keys from a YAML config file, with their line", "[pilot]") {
  const std::string yaml =
      "model:\n"
      "  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"
      "  lora_rank: 64\n"
      "tokenizer:\n"
      "  max_seq_len: 2048\n"
      "batch_size: 4\n"
      "gradient_accumulation_steps: 8\n"
      "epochs: 1\n"
      "max_steps_per_epoch: null\n"
      "dtype: bf16\n";
  const auto facts = pilot_of({{{"recipe.py", "import torch\n"}}, {{"configs/lora.yaml", yaml}}, {}, {}});
  CHECK(value_named(facts, Field::input_length, "max_seq_len")->value == "2048");
  CHECK(value_named(facts, Field::input_length, "max_seq_len")->where == "configs/lora.yaml:5");
  CHECK(value_named(facts, Field::batch, "batch_size")->where == "configs/lora.yaml:6");
  CHECK(value_named(facts, Field::batch, "gradient_accumulation_steps")->value == "8");
  CHECK(value_named(facts, Field::expected_steps, "epochs")->value == "1");
  CHECK(value_named(facts, Field::method, "lora_rank")->value == "64");
  CHECK(value_named(facts, Field::precision, "dtype")->value == "bf16");
  CHECK(facts.configs_read == std::vector<std::string>{"configs/lora.yaml"});
}

TEST_CASE("pilot fields: a config that is not YAML, or hostile, gives nothing and never throws", "[pilot]") {
  const std::string bad = "{{{ [ : not yaml";
  const std::string aliases = "a: &a [1, 2]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nmax_length: 512\n";
  pilot::PilotFacts facts;
  REQUIRE_NOTHROW(facts = pilot_of({{{"t.py", "x = 1\n"}}, {{"bad.yaml", bad}, {"alias.yaml", aliases}}, {}, {}}));
  CHECK(value_named(facts, Field::input_length, "max_length")->where == "alias.yaml:4");
}

TEST_CASE("pilot fields: inference-only and test code do not fill training fields", "[pilot]") {
  constexpr std::string_view code = R"PY(import torch

@torch.inference_mode()
def generate(model, tokenizer, prompt):
    ids = tokenizer(prompt, max_length=77, truncation=True)
    return model.generate(ids, max_length=4096)
)PY";
  const auto facts =
      pilot_of({{{"serve.py", std::string(code)}, {"tests/test_train.py", "max_seq_len = 9\n"}}, {}, {}, {}});
  CHECK(testing::field(facts, Field::input_length).found.empty());
  CHECK_THAT(testing::field(facts, Field::input_length).hint, Catch::Contains("maximum input length"));
}

TEST_CASE("pilot fields: flags of a shell launch script, each on its own line", "[pilot]") {
  const std::string sh =
      "#!/bin/bash\n"
      "# --max_seq_len 1 in a comment does not count\n"
      "accelerate launch train.py \\\n"
      "  --max_seq_len 2048 \\\n"
      "  --per_device_train_batch_size=8 \\\n"
      "  --gradient-accumulation-steps \"4\" \\\n"
      "  --bf16 \\\n"
      "  --output_dir out\n";
  const auto facts = pilot_of({{{"train.py", "import torch\n"}}, {{"run_peft.sh", sh}}, {}, {}});
  CHECK(value_named(facts, Field::input_length, "max_seq_len")->value == "2048");
  CHECK(value_named(facts, Field::input_length, "max_seq_len")->where == "run_peft.sh:4");
  CHECK(value_named(facts, Field::batch, "per_device_train_batch_size")->value == "8");
  CHECK(value_named(facts, Field::batch, "gradient_accumulation_steps")->value == "4");
  CHECK(value_named(facts, Field::batch, "gradient_accumulation_steps")->where == "run_peft.sh:6");
  CHECK(value_named(facts, Field::precision, "bf16")->value == "True");
}
