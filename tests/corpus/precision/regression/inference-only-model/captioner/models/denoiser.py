"""The model the training script trains."""
import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Linear(dim, dim)

    def forward(self, x, mask):
        kept = x[mask]
        return self.net(x), kept.shape[0]
