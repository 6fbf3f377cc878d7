import torch
from torch import nn


class CachedLM(nn.Module):
    """The NLU fork's copy of the model, installed only by this sub-project."""

    def __init__(self, vocab: int = 256, dim: int = 64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        h = self.embed(idx)
        if h.abs().max().item() > 1e4:
            h = h.clamp(-1e4, 1e4)
        return self.head(h)
