"""TinyStories, tokenized per story; batches are padded to their longest story."""
from __future__ import annotations

import torch
from datasets import load_dataset
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset
from transformers import AutoTokenizer

IGNORE_INDEX = -100


def load_tokenizer(name: str = "EleutherAI/gpt-neox-20b"):
    tokenizer = AutoTokenizer.from_pretrained(name)
    tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


class StoryDataset(Dataset):
    """One story per item, as a 1-D LongTensor of token ids (length varies)."""

    def __init__(self, split: str, tokenizer, max_len: int):
        stories = load_dataset("roneneldan/TinyStories", split=split)
        encoded = stories.map(
            lambda batch: tokenizer(batch["text"], truncation=True, max_length=max_len),
            batched=True,
            remove_columns=stories.column_names,
        )
        self.examples = [torch.tensor(ids, dtype=torch.long) for ids in encoded["input_ids"] if len(ids) > 1]

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, index):
        return self.examples[index]


class PadCollator:
    """Pads a batch to its own longest example; the shifted labels ignore padding."""

    def __init__(self, pad_id: int):
        self.pad_id = pad_id

    def __call__(self, batch: list[torch.Tensor]) -> dict[str, torch.Tensor]:
        input_ids = pad_sequence(batch, batch_first=True, padding_value=self.pad_id)
        labels = pad_sequence(batch, batch_first=True, padding_value=IGNORE_INDEX)
        return {"input_ids": input_ids[:, :-1], "labels": labels[:, 1:]}


def encode_prompts(tokenizer, prompts: list[str], max_len: int) -> torch.Tensor:
    """Tokenizes sample prompts for generation previews, padded to the longest prompt."""
    encoded = tokenizer(prompts, padding="longest", truncation=True, max_length=max_len, return_tensors="pt")
    return encoded["input_ids"]
