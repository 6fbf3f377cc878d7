import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 128, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.embed(tokens))
