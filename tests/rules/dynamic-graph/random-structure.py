"""Stochastic-depth residual block."""
import random

import torch
from torch import nn


class DropPathBlock(nn.Module):
    def __init__(self, dim, drop_prob=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.drop_prob = drop_prob

    def forward(self, x):
        # expect: dynamic-graph.random-structure
        if self.training and random.random() < self.drop_prob:
            return x
        # ok: dynamic-graph.random-structure
        if self.training:
            x = x + 0.0
        return x + self.body(x)


def sample_augmentation(image, p=0.5):
    # ok: dynamic-graph.random-structure
    if random.random() < p:
        image = image.flip(-1)
    return image
