"""QLoRA SFT with TRL: a paged 8-bit AdamW to fit a 7B model on one GPU."""
from transformers import TrainingArguments
from trl import SFTConfig, SFTTrainer


def build(model, dataset, args):
    # expect: cuda-library.trainer-cuda-optimizer
    config = SFTConfig(output_dir=args.out, per_device_train_batch_size=4, optim="paged_adamw_8bit", bf16=True)
    return SFTTrainer(model=model, args=config, train_dataset=dataset)


def build_plain(model, dataset, args):
    # ok: cuda-library.trainer-cuda-optimizer
    config = TrainingArguments(output_dir=args.out, optim="adamw_torch", learning_rate=2e-4)
    return SFTTrainer(model=model, args=config, train_dataset=dataset)


def build_apex(model, args):
    # expect: cuda-library.trainer-cuda-optimizer
    return TrainingArguments(output_dir=args.out, optim="adamw_apex_fused")


def scheduler_config(args):
    # ok: cuda-library.trainer-cuda-optimizer
    return dict(optim="paged_adamw_8bit", lr=args.lr)
