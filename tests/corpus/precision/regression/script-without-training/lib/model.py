import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=128, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.embed(ids))

    @torch.no_grad()
    def generate(self, ids, steps=8):
        for _ in range(steps):
            next_id = self(ids)[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, next_id], dim=1)
        return ids
