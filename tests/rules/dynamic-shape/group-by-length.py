"""Trainer arguments for speech fine-tuning."""
from transformers import Seq2SeqTrainingArguments, TrainingArguments


def args_for(task, out):
    if task == "asr":
        # expect: dynamic-shape.group-by-length
        return Seq2SeqTrainingArguments(output_dir=out, group_by_length=True, per_device_train_batch_size=16)
    # ok: dynamic-shape.group-by-length
    return TrainingArguments(output_dir=out, group_by_length=False, per_device_train_batch_size=16)
