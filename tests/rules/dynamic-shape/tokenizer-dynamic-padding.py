"""Instruction-tuning dataset and collate function."""
import torch
from torch.utils.data import Dataset
from transformers import AutoTokenizer


class InstructionDataset(Dataset):
    def __init__(self, records, model_name, max_length=2048):
        self.records = records
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)
        self.max_length = max_length

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        # ok: dynamic-shape.tokenizer-dynamic-padding
        return self.tokenizer(self.records[i]["text"], truncation=True, max_length=self.max_length)

    def collate(self, batch):
        texts = [r["text"] for r in batch]
        # expect: dynamic-shape.tokenizer-dynamic-padding
        return self.tokenizer(texts, padding=True, truncation=True, return_tensors="pt")


def collate_eval(batch, tokenizer):
    # expect: dynamic-shape.tokenizer-dynamic-padding
    return tokenizer([b["prompt"] for b in batch], padding="longest", return_tensors="pt")


def collate_fixed(batch, tokenizer, max_length=1024):
    # ok: dynamic-shape.tokenizer-dynamic-padding
    return tokenizer([b["prompt"] for b in batch], padding="max_length", max_length=max_length, return_tensors="pt")


def pad_features(features, tokenizer):
    # expect: dynamic-shape.tokenizer-dynamic-padding
    return tokenizer.pad(features, padding=True, return_tensors="pt")


def pad_image(image, size):
    # ok: dynamic-shape.tokenizer-dynamic-padding
    return torch.nn.functional.pad(image, (0, size - image.shape[-1]))


def tokenize_each(strings, tokenizer):
    """One example at a time (the collator pads the batch): padding="longest" over one text pads nothing."""
    tokenized = [
        # ok: dynamic-shape.tokenizer-dynamic-padding
        tokenizer(text, return_tensors="pt", padding="longest", max_length=tokenizer.model_max_length, truncation=True)
        for text in strings
    ]
    return [t.input_ids[0] for t in tokenized]


def tokenize_records(records, tokenizer):
    # ok: dynamic-shape.tokenizer-dynamic-padding
    return [tokenizer(r["text"], padding=True) for i, r in enumerate(records)]


def tokenize_batches(batches, tokenizer):
    # expect: dynamic-shape.tokenizer-dynamic-padding
    return [tokenizer(batch, padding=True, return_tensors="pt") for batch in batches]

