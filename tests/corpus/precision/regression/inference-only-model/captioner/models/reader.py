"""A reader model that only the captioning tool loads."""
import torch
from torch import nn


class CaptionReader(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens, mask):
        keep = mask.nonzero()
        picked = tokens[mask.bool()]
        if picked.sum().item() > 0:
            picked = picked * 2
        return self.proj(picked), keep
