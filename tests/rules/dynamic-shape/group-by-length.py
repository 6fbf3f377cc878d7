"""Trainer arguments for speech fine-tuning."""
from transformers import Seq2SeqTrainingArguments, TrainingArguments


def args_for(task, out):
    if task == "asr":
        # expect: dynamic-shape.group-by-length
        return Seq2SeqTrainingArguments(output_dir=out, group_by_length=True, per_device_train_batch_size=16)
    # ok: dynamic-shape.group-by-length
    return TrainingArguments(output_dir=out, group_by_length=False, per_device_train_batch_size=16)


def train(base_model: str = "", output_dir: str = "./lora-alpaca", group_by_length: bool = False,
          bucket_by_length: bool = True):
    # expect-low: dynamic-shape.group-by-length
    opt_in = TrainingArguments(output_dir=output_dir, group_by_length=group_by_length)
    # expect: dynamic-shape.group-by-length
    on_by_default = TrainingArguments(output_dir=output_dir, group_by_length=bucket_by_length)
    return opt_in, on_by_default
