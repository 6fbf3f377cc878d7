// report/training_setup: facts about how the repo trains, which the verdict and the plan depend on
// (LoRA vs full fine-tune, model family, precision, parallelism, checkpointing and resume).
#pragma once
#include <string>
#include <vector>

namespace tr2audit::report {

struct SetupFact {
  std::string value;                  ///< "lora", "bf16", "fsdp", "llama", ...
  std::vector<std::string> evidence;  ///< "path:line" of up to 3 places that show it
};

struct TrainingSetup {
  std::vector<SetupFact> fine_tuning;    ///< "lora", "qlora", "full", "pretraining"
  std::vector<SetupFact> model_family;   ///< "llama", "gpt2", "mistral", "hf-auto", "custom"
  std::vector<SetupFact> precision;      ///< "bf16", "fp16", "fp32", "fp8"
  std::vector<SetupFact> parallelism;    ///< "ddp", "fsdp", "deepspeed", "megatron", "nxd-tp", "nxd-pp", "xla-spmd"
  std::vector<SetupFact> checkpointing;  ///< "save-pretrained", "optimizer-state", "resume", "sharded", "async"
  std::vector<SetupFact> frameworks;     ///< "hf-trainer", "accelerate", "lightning", "plain-pytorch", "optimum-neuron"
};

}  // namespace tr2audit::report
