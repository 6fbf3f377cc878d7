import torch
from torch import nn

from .extra import scale


class Model(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return scale(self.proj(x))
