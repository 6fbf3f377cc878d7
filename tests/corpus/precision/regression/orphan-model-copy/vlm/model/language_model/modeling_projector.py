import torch
from torch import nn


class Projector(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, features):
        keep = features.abs().sum(-1) > 0
        return self.proj(features[keep]).unsqueeze(0)
