"""Speech-to-text data collator (Whisper fine-tuning) that pads inputs and labels per batch."""
from dataclasses import dataclass
from typing import Any

import torch


@dataclass
class DataCollatorSpeechSeq2SeqWithPadding:
    processor: Any

    def __call__(self, features):
        input_features = [{"input_features": f["input_features"]} for f in features]
        # Whisper's log-mel windows are all 30 s long already.
        # ok: dynamic-shape.tokenizer-pad-default-longest
        batch = self.processor.feature_extractor.pad(input_features, return_tensors="pt")
        label_features = [{"input_ids": f["labels"]} for f in features]
        # expect: dynamic-shape.tokenizer-pad-default-longest
        labels_batch = self.processor.tokenizer.pad(label_features, return_tensors="pt")
        labels = labels_batch["input_ids"].masked_fill(labels_batch.attention_mask.ne(1), -100)
        batch["labels"] = labels
        return batch


def collate_fixed(features, tokenizer, max_length=448):
    # ok: dynamic-shape.tokenizer-pad-default-longest
    return tokenizer.pad(features, padding="max_length", max_length=max_length, return_tensors="pt")


def collate_bucketed(features, tokenizer):
    # ok: dynamic-shape.tokenizer-pad-default-longest
    return tokenizer.pad(features, pad_to_multiple_of=128, return_tensors="pt")


def collate_kwargs(features, tokenizer, pad_kwargs):
    # ok: dynamic-shape.tokenizer-pad-default-longest
    return tokenizer.pad(features, return_tensors="pt", **pad_kwargs)


def pad_tensor(x, size):
    # ok: dynamic-shape.tokenizer-pad-default-longest
    return torch.nn.functional.pad(x, (0, size - x.shape[-1]))
