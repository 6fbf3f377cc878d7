# Options that are off by default: a dataclass field(default=False) read as `args.x`, a private flag
# taken from a config with a False fallback, and a conditional expression on a store_true flag.
import argparse
from dataclasses import dataclass, field

import torch
import transformers
from torchao.float8 import Float8LinearConfig


@dataclass
class ExtraArguments:
    do_probe_eval: bool = field(default=False, metadata={"help": "Run the probe evaluation after each eval."})
    use_fused_kernels: bool = field(default=False, metadata={"help": "Use the fused CUDA kernels."})
    probe_every: int = field(default=100)
    compile_model: bool = field(default=True, metadata={"help": "Compile the model."})


class Recipe:
    def __init__(self, cfg: dict) -> None:
        self._enable_fp8 = cfg.get("enable_fp8", False)

    def setup_model(self, model: torch.nn.Module) -> torch.nn.Module:
        if self._enable_fp8:
            self.fp8_config = Float8LinearConfig.from_recipe_name("rowwise")
        return model


def build(args: ExtraArguments, model: torch.nn.Module) -> torch.nn.Module:
    if args.use_fused_kernels:
        from unsloth import FastLanguageModel

        model = FastLanguageModel.patch_peft_model(model)
    if args.compile_model:
        model = torch.compile(model)
    return model


def main() -> None:
    parser = transformers.HfArgumentParser((ExtraArguments,))
    (extra,) = parser.parse_args_into_dataclasses()
    cli = argparse.ArgumentParser()
    cli.add_argument("--fp16", action="store_true")
    flags, _ = cli.parse_known_args()
    model = build(extra, torch.nn.Linear(8, 2))
    Recipe({}).setup_model(model)
    scaler = torch.cuda.amp.GradScaler() if flags.fp16 else None
    trainer = transformers.Trainer(model=model, args=transformers.TrainingArguments(output_dir="out"))
    if extra.do_probe_eval:

        class ProbeCallback(transformers.TrainerCallback):
            def on_evaluate(self, args, state, control, model=None, **kwargs):
                labels = kwargs["labels"]
                picked = labels[labels != -100]
                first = (labels != -100).nonzero()
                print(picked.sum().item(), first, scaler)

        trainer.add_callback(ProbeCallback)
    trainer.train()


if __name__ == "__main__":
    main()
