from random import random

import torch
from torch import nn


def exists(v):
    return v is not None


def default(v, d):
    return v if exists(v) else d


class LatentDecoder(nn.Module):
    def __init__(self, dim=256, latent_drop_prob=0.0, word_drop_prob=0.1, mask_prob=0.0):
        super().__init__()
        self.net = nn.Linear(dim, dim)
        self.latent_drop_prob = latent_drop_prob
        self.word_drop_prob = word_drop_prob
        self.mask_prob = mask_prob

    def forward(self, x, latent_drop_prob=None, word_drop_prob=None, mask_prob=None):
        latent_drop_prob = default(latent_drop_prob, self.latent_drop_prob)
        word_drop_prob = word_drop_prob if word_drop_prob is not None else self.word_drop_prob
        mask_prob = mask_prob if mask_prob is not None else self.mask_prob
        if self.training and latent_drop_prob > 0.0 and random() < latent_drop_prob:
            return self.net(x).mean()
        if self.training and word_drop_prob > 0.0 and random() < word_drop_prob:
            x = x * 0
        if self.training and mask_prob > 0.0 and random() < mask_prob:
            x = x.flip(0)
        return self.net(x).pow(2).mean()
