import torch
from torch import nn


class LM(nn.Module):
    def __init__(self, vocab=32000, dim=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.out(self.emb(ids))
