"""Distillation SFT with TRL, patched with Liger's fused kernels to save activation memory."""
from transformers import TrainingArguments
from trl import SFTConfig, SFTTrainer


def build(model, dataset, args):
    # expect: cuda-library.trainer-liger-kernel
    config = SFTConfig(output_dir=args.out, per_device_train_batch_size=4, use_liger_kernel=True, bf16=True)
    return SFTTrainer(model=model, args=config, train_dataset=dataset)


def build_plain(model, dataset, args):
    # ok: cuda-library.trainer-liger-kernel
    config = TrainingArguments(output_dir=args.out, use_liger_kernel=False)
    return SFTTrainer(model=model, args=config, train_dataset=dataset)


def build_switchable(model, dataset, args):
    # ok: cuda-library.trainer-liger-kernel
    config = SFTConfig(output_dir=args.out, use_liger_kernel=args.liger)
    return SFTTrainer(model=model, args=config, train_dataset=dataset)
