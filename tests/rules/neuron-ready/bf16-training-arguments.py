"""Hugging Face Trainer arguments."""
from transformers import TrainingArguments


def make_args(out, precision):
    if precision == "bf16":
        # expect: neuron-ready.bf16-training-arguments
        return TrainingArguments(output_dir=out, bf16=True, per_device_train_batch_size=4)
    # ok: neuron-ready.bf16-training-arguments
    return TrainingArguments(output_dir=out, bf16=False, per_device_train_batch_size=4)
