"""Alpaca-style instruction data, tokenized once into fixed 1024-token examples.

Training examples are packed: all tokenized text is concatenated and cut into `block_size` blocks,
so no step ever sees a padded or shorter batch. The evaluation split keeps one example per row,
padded (or truncated) to exactly `block_size` tokens. Both maps are deterministic and cached by
`datasets`, keyed on the tokenizer and the config.
"""
from __future__ import annotations

from itertools import chain

from datasets import Dataset, load_dataset
from transformers import PreTrainedTokenizerBase

from config import DataConfig

PROMPT = "### Instruction:\n{instruction}\n\n{context}### Response:\n{output}"
IGNORE_INDEX = -100


def format_example(example: dict) -> dict:
    context = f"### Input:\n{example['input']}\n\n" if example["input"] else ""
    text = PROMPT.format(instruction=example["instruction"], context=context, output=example["output"])
    return {"text": text}


def pack_into_blocks(batch: dict, block_size: int) -> dict:
    """Concatenates token ids of a batch of rows and cuts them into full blocks (the tail is dropped)."""
    ids = list(chain.from_iterable(batch["input_ids"]))
    usable = (len(ids) // block_size) * block_size
    blocks = [ids[i : i + block_size] for i in range(0, usable, block_size)]
    return {"input_ids": blocks, "attention_mask": [[1] * block_size for _ in blocks], "labels": blocks}


def tokenize_for_packing(batch: dict, tokenizer: PreTrainedTokenizerBase) -> dict:
    texts = [text + tokenizer.eos_token for text in batch["text"]]
    return tokenizer(texts, add_special_tokens=True)


def tokenize_padded(batch: dict, tokenizer: PreTrainedTokenizerBase, block_size: int) -> dict:
    encoded = tokenizer(
        batch["text"],
        padding="max_length",
        truncation=True,
        max_length=block_size,
    )
    encoded["labels"] = [
        [tok if keep else IGNORE_INDEX for tok, keep in zip(ids, mask)]
        for ids, mask in zip(encoded["input_ids"], encoded["attention_mask"])
    ]
    return encoded


def build_datasets(cfg: DataConfig, tokenizer: PreTrainedTokenizerBase, seed: int) -> tuple[Dataset, Dataset]:
    raw = load_dataset(cfg.dataset, split=cfg.split)
    raw = raw.map(format_example, remove_columns=raw.column_names, num_proc=cfg.num_proc)
    splits = raw.train_test_split(test_size=cfg.eval_fraction, seed=seed)

    train = splits["train"].map(
        tokenize_for_packing,
        fn_kwargs={"tokenizer": tokenizer},
        batched=True,
        remove_columns=["text"],
        num_proc=cfg.num_proc,
    )
    train = train.map(
        pack_into_blocks,
        fn_kwargs={"block_size": cfg.block_size},
        batched=True,
        batch_size=1000,
        remove_columns=train.column_names,
        num_proc=cfg.num_proc,
    )
    evaluation = splits["test"].map(
        tokenize_padded,
        fn_kwargs={"tokenizer": tokenizer, "block_size": cfg.block_size},
        batched=True,
        remove_columns=["text"],
        num_proc=cfg.num_proc,
    )
    columns = ["input_ids", "attention_mask", "labels"]
    train.set_format("torch", columns=columns)
    evaluation.set_format("torch", columns=columns)
    return train, evaluation
