"""Padding-free training step with packed sequences."""
import torch


def train_step(model, batch, optimizer):
    input_ids = batch["input_ids"]
    seqlens = batch["seq_lens"]
    cu_seqlens = torch.nn.functional.pad(seqlens.cumsum(0, dtype=torch.int32), (1, 0))
    # expect: dynamic-shape.varlen-packing
    logits = model(input_ids, cu_seqlens=cu_seqlens, max_seqlen=int(seqlens.max()))
    loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


def train(model, loader, optimizer):
    for batch in loader:
        train_step(model, batch, optimizer)


def fixed_step(model, batch):
    # ok: dynamic-shape.varlen-packing
    return model(batch["input_ids"], attention_mask=batch["attention_mask"])
