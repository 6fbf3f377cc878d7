"""Yelp reviews, tokenized without padding; each batch is padded to its longest review."""
from __future__ import annotations

from datasets import load_dataset
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from transformers import DataCollatorWithPadding


def tokenized_splits(tokenizer, max_length: int, eval_size: int, seed: int):
    reviews = load_dataset("Yelp/yelp_review_full")
    reviews = reviews.map(
        lambda batch: tokenizer(batch["text"], truncation=True, max_length=max_length),
        batched=True,
        remove_columns=["text"],
    )
    reviews = reviews.rename_column("label", "labels")
    evaluation = reviews["test"].shuffle(seed=seed).select(range(eval_size))
    return reviews["train"], evaluation


def build_loaders(tokenizer, args, rank: int, world_size: int) -> tuple[DataLoader, DataLoader, DistributedSampler]:
    train_set, eval_set = tokenized_splits(tokenizer, args.max_length, args.eval_size, args.seed)
    collator = DataCollatorWithPadding(tokenizer)
    sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, sampler=sampler, collate_fn=collator,
                              num_workers=4, pin_memory=True)
    eval_loader = DataLoader(eval_set, batch_size=args.batch_size * 2, collate_fn=collator,
                             num_workers=2, pin_memory=True)
    return train_loader, eval_loader, sampler
