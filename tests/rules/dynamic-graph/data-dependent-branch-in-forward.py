"""Transformer block with an activation clamp."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, use_residual=True, clip=50.0):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.use_residual = use_residual
        self.clip = clip

    def forward(self, x):
        h = self.mlp(self.norm(x))
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if h.abs().max() > self.clip:
            h = h.clamp(-self.clip, self.clip)
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if self.use_residual:
            h = h + x
        return h


def check_batch(batch):
    # ok: dynamic-graph.data-dependent-branch-in-forward
    if torch.isnan(batch).any():
        raise ValueError("nan in input")
    return batch
