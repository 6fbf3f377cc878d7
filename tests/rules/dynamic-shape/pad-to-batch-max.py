"""Hand-written collate function for causal LM batches."""
import torch


def collate_fn(batch, pad_id=0):
    # expect: dynamic-shape.pad-to-batch-max
    max_len = max(len(x["input_ids"]) for x in batch)
    ids = torch.full((len(batch), max_len), pad_id, dtype=torch.long)
    for i, x in enumerate(batch):
        ids[i, : len(x["input_ids"])] = torch.tensor(x["input_ids"])
    return ids


def collate_fixed(batch, pad_id=0, seq_len=2048):
    # ok: dynamic-shape.pad-to-batch-max
    ids = torch.full((len(batch), seq_len), pad_id, dtype=torch.long)
    for i, x in enumerate(batch):
        n = min(len(x["input_ids"]), seq_len)
        ids[i, :n] = torch.tensor(x["input_ids"][:n])
    return ids
