import torch
from torch import nn


class TinyGPT(nn.Module):
    def __init__(self, vocab: int = 512, dim: int = 128):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        return self.head(self.block(self.embed(idx)))
