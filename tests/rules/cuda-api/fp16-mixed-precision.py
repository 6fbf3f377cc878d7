"""Hugging Face fine-tuning arguments."""
from transformers import TrainingArguments


def training_args(output_dir, use_fp16):
    if use_fp16:
        # expect: cuda-api.fp16-mixed-precision
        return TrainingArguments(output_dir=output_dir, per_device_train_batch_size=8, fp16=True)
    # ok: cuda-api.fp16-mixed-precision
    return TrainingArguments(output_dir=output_dir, per_device_train_batch_size=8, bf16=True)
