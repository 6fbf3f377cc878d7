"""Sparse loss over selected positions."""
import numpy as np
import torch
import torch.nn.functional as F


def train_step(model, batch, optimizer):
    logits = model(batch["input_ids"])
    # expect: dynamic-graph.data-dependent-shape-method
    positions = (batch["labels"] != -100).nonzero()
    # expect: dynamic-graph.data-dependent-shape-method
    classes = batch["labels"].unique()
    loss = F.cross_entropy(logits[positions[:, 0], positions[:, 1]], batch["labels"][positions[:, 0], positions[:, 1]])
    loss.backward()
    optimizer.step()
    # ok: dynamic-graph.data-dependent-shape-method
    nonzero_count = batch["attention_mask"].sum()
    return loss.detach(), classes, nonzero_count


def label_histogram(labels):
    # ok: dynamic-graph.data-dependent-shape-method
    return np.asarray(labels).nonzero()
