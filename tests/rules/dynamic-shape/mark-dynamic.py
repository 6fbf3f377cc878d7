"""Marks the sequence dimension as dynamic before compiling."""
import torch
import torch._dynamo


def prepare(batch):
    # expect: dynamic-shape.mark-dynamic
    torch._dynamo.mark_dynamic(batch["input_ids"], 1)
    # ok: dynamic-shape.mark-dynamic
    torch._dynamo.config.cache_size_limit = 64
    return batch
