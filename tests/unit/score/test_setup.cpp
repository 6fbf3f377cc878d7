// Tests of score::collect_setup on facts from the real extractor over realistic training code.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/score/setup.hpp"

using namespace tr2audit;
using testing::facts_of;

namespace {

const report::SetupFact* fact(const std::vector<report::SetupFact>& facts, std::string_view value) {
  for (const auto& f : facts) {
    if (f.value == value) return &f;
  }
  return nullptr;
}

std::vector<std::string> values(const std::vector<report::SetupFact>& facts) {
  std::vector<std::string> out;
  for (const auto& f : facts) out.push_back(f.value);
  return out;
}

report::TrainingSetup setup_of(std::string_view code, std::string path = "train.py") {
  report::TrainingSetup setup;
  score::collect_setup(facts_of(code, std::move(path)), setup);
  score::finalize_setup(setup);
  return setup;
}

constexpr std::string_view k_lora = R"(import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

def build(name="meta-llama/Llama-3.2-1B"):
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", torch_dtype=torch.bfloat16)
    config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"])
    return get_peft_model(model, config)

def main():
    model = build()
    args = TrainingArguments(output_dir="out", bf16=True)
    trainer = Trainer(model=model, args=args)
    trainer.train(resume_from_checkpoint=True)
    model.save_pretrained("out/adapter")
)";

constexpr std::string_view k_nanogpt = R"(import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from model import GPTConfig, GPT

dtype = 'bfloat16' if torch.cuda.is_bf16_supported() else 'float16'
gptconf = GPTConfig(n_layer=12)
model = GPT(gptconf)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
model = DDP(model, device_ids=[0])
for step in range(100):
    loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    if step % 1000 == 0:
        checkpoint = {'model': model.state_dict(), 'optimizer': optimizer.state_dict(), 'iter_num': step}
        torch.save(checkpoint, 'ckpt.pt')
)";

}  // namespace

TEST_CASE("score::collect_setup recognises a LoRA fine-tune of Llama in bf16 with the HF Trainer", "[score]") {
  const auto setup = setup_of(k_lora);
  CHECK(values(setup.fine_tuning) == std::vector<std::string>{"lora"});  // not "full": adapters train
  const auto* llama = fact(setup.model_family, "llama");
  REQUIRE(llama != nullptr);
  CHECK(llama->evidence == std::vector<std::string>{"train.py:6"});
  CHECK(fact(setup.model_family, "hf-auto") != nullptr);
  const auto* bf16 = fact(setup.precision, "bf16");
  REQUIRE(bf16 != nullptr);
  CHECK(bf16->evidence == std::vector<std::string>{"train.py:6", "train.py:12"});
  CHECK(fact(setup.precision, "fp16") == nullptr);
  CHECK(values(setup.frameworks) == std::vector<std::string>{"hf-trainer"});
  CHECK(fact(setup.checkpointing, "resume") != nullptr);
  CHECK(fact(setup.checkpointing, "save-pretrained") != nullptr);
}

TEST_CASE("score::collect_setup recognises nanoGPT-style pretraining with DDP", "[score]") {
  const auto setup = setup_of(k_nanogpt);
  const auto* pre = fact(setup.fine_tuning, "pretraining");
  REQUIRE(pre != nullptr);
  CHECK(pre->evidence == std::vector<std::string>{"train.py:7"});
  CHECK(values(setup.model_family) == std::vector<std::string>{"custom"});
  const auto* bf16 = fact(setup.precision, "bf16");
  REQUIRE(bf16 != nullptr);
  CHECK(bf16->evidence == std::vector<std::string>{"train.py:5"});
  const auto* fp16 = fact(setup.precision, "fp16");
  REQUIRE(fp16 != nullptr);
  // (`dtype = 'bfloat16' if ... else 'float16'` in the script's body picks fp16 where bf16 is unsupported.)
  CHECK(fp16->evidence == std::vector<std::string>{"train.py:5", "train.py:8"});
  CHECK(values(setup.parallelism) == std::vector<std::string>{"ddp"});
  const auto* opt = fact(setup.checkpointing, "optimizer-state");
  REQUIRE(opt != nullptr);
  CHECK(opt->evidence == std::vector<std::string>{"train.py:17"});
  const auto* loop = fact(setup.frameworks, "plain-pytorch");
  REQUIRE(loop != nullptr);
  CHECK(loop->evidence == std::vector<std::string>{"train.py:11"});
}

TEST_CASE("score::collect_setup recognises QLoRA, FSDP, NxD and optimum-neuron", "[score]") {
  const auto setup = setup_of(R"(import torch
from transformers import BitsAndBytesConfig, AutoModelForCausalLM
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from neuronx_distributed.parallel_layers import ColumnParallelLinear
from optimum.neuron import NeuronTrainer

bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", quantization_config=bnb)
model = FSDP(model)
proj = ColumnParallelLinear(4096, 4096)
trainer = NeuronTrainer(model=model)
)");
  CHECK(values(setup.fine_tuning) == std::vector<std::string>{"qlora"});
  CHECK(fact(setup.model_family, "mistral") != nullptr);
  CHECK(values(setup.parallelism) == std::vector<std::string>{"fsdp", "nxd-tp"});
  CHECK(values(setup.frameworks) == std::vector<std::string>{"optimum-neuron"});
}

TEST_CASE("score::finalize_setup is independent of file order and caps evidence", "[score]") {
  std::string many = "import torch\n";
  for (int i = 0; i < 6; ++i) many += "x" + std::to_string(i) + " = torch.zeros(3, dtype=torch.bfloat16)\n";
  const auto a = facts_of(many, "b.py");
  const auto b = facts_of("import torch\ny = torch.ones(2, dtype=torch.bfloat16)\n", "a.py");
  report::TrainingSetup ab, ba;
  score::collect_setup(a, ab);
  score::collect_setup(b, ab);
  score::collect_setup(b, ba);
  score::collect_setup(a, ba);
  score::finalize_setup(ab);
  score::finalize_setup(ba);
  const auto* bf16 = fact(ab.precision, "bf16");
  REQUIRE(bf16 != nullptr);
  CHECK(bf16->evidence == std::vector<std::string>{"a.py:2", "b.py:2", "b.py:3"});
  CHECK(fact(ba.precision, "bf16")->evidence == bf16->evidence);
}

TEST_CASE("score::collect_setup skips test files", "[score]") {
  report::TrainingSetup setup;
  score::collect_setup(facts_of(k_lora, "tests/test_train.py", true), setup);
  score::finalize_setup(setup);
  CHECK(setup.fine_tuning.empty());
  CHECK(setup.precision.empty());
}

TEST_CASE("score::collect_setup: a DataCollatorFor* is a batch builder, not a model built from scratch", "[score]") {
  const auto setup = setup_of(R"PY(import transformers
from peft import LoraConfig

config = LoraConfig(r=8)
collator = transformers.DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8, return_tensors="pt", padding=True)
lm = transformers.DataCollatorForLanguageModeling(tokenizer, mlm=False)
)PY");
  CHECK(values(setup.fine_tuning) == std::vector<std::string>{"lora"});
}

TEST_CASE("score::finalize_setup cites the training path's places before the others'", "[score]") {
  // A chat demo (`app/chat.py`) and the fine-tune (`train.py`) both load a Hugging Face model: the fact holds
  // either way, and its first place is the training script's, whatever the paths' order.
  const auto demo = facts_of(
      "from transformers import AutoModelForCausalLM\n"
      "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
      "print(model.generate(ids))\n",
      "app/chat.py");
  const auto train = facts_of(k_lora, "train.py");
  const auto only_demo = facts_of(
      "import torch\n"
      "x = torch.zeros(3, dtype=torch.float16)\n"
      "model = torch.nn.parallel.DistributedDataParallel(model)\n",
      "app/fp16.py");
  report::TrainingSetup setup, elsewhere;
  const auto training = [](std::string_view path) {
    return [path](const facts::Context&) { return path == "train.py"; };
  };
  score::collect_setup(demo, setup, elsewhere, training("app/chat.py"));
  score::collect_setup(train, setup, elsewhere, training("train.py"));
  score::collect_setup(only_demo, setup, elsewhere, training("app/fp16.py"));
  score::finalize_setup(setup, std::move(elsewhere));
  const auto* hf = fact(setup.model_family, "hf-auto");
  REQUIRE(hf != nullptr);
  REQUIRE(hf->evidence.size() == 2);
  CHECK(hf->evidence[0] == "train.py:6");
  CHECK(hf->evidence[1] == "app/chat.py:2");
  // A field the training path says nothing of takes the other code's values, with their places...
  const auto* ddp = fact(setup.parallelism, "ddp");
  REQUIRE(ddp != nullptr);
  CHECK(ddp->evidence == std::vector<std::string>{"app/fp16.py:3"});
  // ...but where it shows a value (bf16), a value only the other code shows (fp16) is not the run's.
  CHECK(values(setup.precision) == std::vector<std::string>{"bf16"});
}

TEST_CASE("score::finalize_setup: an export script's from_pretrained does not make a from-scratch run a fine-tune",
          "[score]") {
  // llama2.c's shape: train.py builds Transformer(gptconf); export.py loads a Hugging Face model to convert it.
  const auto train = facts_of(
      "import torch\n"
      "from model import Transformer, ModelArgs\n"
      "gptconf = ModelArgs(dim=288)\n"
      "model = Transformer(gptconf)\n"
      "model.save_pretrained('out')\n",
      "train.py");
  const auto export_script = facts_of(
      "from transformers import AutoModelForCausalLM\n"
      "hf_model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.float16)\n"
      "model = Transformer(config)\n"
      "hf_model.save_pretrained('hf')\n"
      "half = torch.zeros(2, dtype=torch.bfloat16)\n",
      "export.py");
  report::TrainingSetup setup, elsewhere;
  score::collect_setup(train, setup, elsewhere, [](const facts::Context&) { return true; });
  score::collect_setup(export_script, setup, elsewhere, [](const facts::Context&) { return false; });
  const report::TrainingSetup kept_elsewhere = elsewhere;
  score::finalize_setup(setup, std::move(elsewhere), /*training_path_known=*/true);
  CHECK(values(setup.fine_tuning) == std::vector<std::string>{"pretraining"});
  // A field the training path says nothing of stays empty: the export script's fp16 is not the run's.
  CHECK(setup.precision.empty());
  // Without a training entry point (a library), the other code's values fill the fields it leaves empty.
  report::TrainingSetup library;
  score::collect_setup(train, library, library, [](const facts::Context&) { return true; });
  score::finalize_setup(library, kept_elsewhere, /*training_path_known=*/false);
  CHECK(values(library.precision) == std::vector<std::string>{"bf16", "fp16"});  // every value, not the first
  CHECK(values(library.fine_tuning) == std::vector<std::string>{"pretraining"});
  // ...and add their places after the path's own.
  REQUIRE(values(library.checkpointing) == std::vector<std::string>{"save-pretrained"});
  CHECK(library.checkpointing[0].evidence == std::vector<std::string>{"train.py:5", "export.py:4"});
  REQUIRE(values(setup.model_family) == std::vector<std::string>{"custom"});
  CHECK(setup.model_family[0].evidence == std::vector<std::string>{"train.py:4"});
  // A value both show cites the training script only.
  REQUIRE(values(setup.checkpointing) == std::vector<std::string>{"save-pretrained"});
  CHECK(setup.checkpointing[0].evidence == std::vector<std::string>{"train.py:5"});
}

TEST_CASE("score::collect_setup: a repo's own save_model is not a Hugging Face save", "[score]") {
  // MAE's `misc.save_model(args=..., model=..., optimizer=...)` writes its own checkpoint dict; a trainer's
  // `trainer.save_model(out)` saves a Hugging Face model.
  const auto checkpointing = [](std::string_view code, std::string_view path) {
    report::TrainingSetup setup;
    score::collect_setup(facts_of(code, std::string(path)), setup);
    score::finalize_setup(setup);
    return values(setup.checkpointing);
  };
  CHECK(checkpointing("import util.misc as misc\n"
                      "misc.save_model(args=args, model=model, optimizer=optimizer, epoch=epoch)\n",
                      "main_pretrain.py")
            .empty());
  CHECK(checkpointing("from transformers import Trainer\n"
                      "trainer = Trainer(model=model)\n"
                      "trainer.save_model('out')\n",
                      "train.py") == std::vector<std::string>{"save-pretrained"});
}
