"""An autoregressive backbone: a subclass builds its blocks through its base's __init__."""
import torch
from torch import nn


class DDiTBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        with torch.cuda.amp.autocast(enabled=False):
            x = self.norm(x.float())
        return x + self.fc(x)


class DDIT(nn.Module):
    def __init__(self, config, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, config.model.hidden_size)
        self.blocks = nn.ModuleList([DDiTBlock(config.model.hidden_size) for _ in range(config.model.n_blocks)])
        self.head = nn.Linear(config.model.hidden_size, vocab_size)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class AR(DDIT):
    def __init__(self, config, vocab_size):
        super().__init__(config, vocab_size)
        self.vocab_size = vocab_size
