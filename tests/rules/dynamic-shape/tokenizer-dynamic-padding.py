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



def encode_prompt(self, prompt, max_length=120):
    """diffusers' truncation warning: the longest-padded ids are only compared and decoded, never encoded."""
    text_inputs = self.tokenizer(prompt, padding="max_length", max_length=max_length, truncation=True, return_tensors="pt")
    text_input_ids = text_inputs.input_ids
    # ok: dynamic-shape.tokenizer-dynamic-padding
    untruncated_ids = self.tokenizer(prompt, padding="longest", return_tensors="pt").input_ids
    if untruncated_ids.shape[-1] >= text_input_ids.shape[-1] and not torch.equal(text_input_ids, untruncated_ids):
        removed_text = self.tokenizer.batch_decode(untruncated_ids[:, max_length - 1 : -1])
        print(f"truncated: {removed_text}")
    return self.text_encoder(text_input_ids.to(self.device))[0]


def encode_prompt_longest(self, prompt):
    """The same binding, but the padded ids go to the text encoder: every prompt length is a new shape."""
    # expect: dynamic-shape.tokenizer-dynamic-padding
    untruncated_ids = self.tokenizer(prompt, padding="longest", return_tensors="pt").input_ids
    if untruncated_ids.shape[-1] > 77:
        print(self.tokenizer.batch_decode(untruncated_ids[:, 77:]))
    return self.text_encoder(untruncated_ids.to(self.device))[0]


def encode_returned(tokenizer, prompt):
    # expect: dynamic-shape.tokenizer-dynamic-padding
    ids = tokenizer(prompt, padding="longest", return_tensors="pt").input_ids
    assert len(ids) > 0
    return ids


def tokenize_example(example, tokenizer):
    """Measured, then stored in the example by subscript: the padded ids go on to the model."""
    # expect: dynamic-shape.tokenizer-dynamic-padding
    tokenized = tokenizer(example["text"], padding=True, truncation=False)
    example["input_ids"] = tokenized["input_ids"]
    example["tokenized_len"] = len(tokenized["input_ids"])
    return example
