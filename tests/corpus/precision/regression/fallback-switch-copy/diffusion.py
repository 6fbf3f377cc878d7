from random import random

from torch import nn


def exists(x):
    return x is not None


def default(val, d):
    if exists(val):
        return val
    return d() if callable(d) else d


class Unet1D(nn.Module):
    def __init__(self, dim=64, self_condition=False):
        super().__init__()
        self.self_condition = self_condition
        self.net = nn.Linear(dim * (2 if self_condition else 1), dim)

    def forward(self, x, cond=None):
        return self.net(x)


class GaussianDiffusion1D(nn.Module):
    def __init__(self, model, self_condition=None):
        super().__init__()
        self.model = model
        self.self_condition = default(self_condition, lambda: self.model.self_condition)

    def forward(self, x):
        cond = None
        if self.self_condition and random() < 0.5:
            cond = self.model(x).detach()
        return self.model(x, cond).pow(2).mean()


class LatentDiffusion(nn.Module):
    def __init__(self, model, self_condition=None):
        super().__init__()
        self.model = model
        self.self_condition = default(self_condition, lambda: self.model.self_condition)

    def forward(self, x):
        cond = None
        if self.self_condition and random() < 0.5:
            cond = self.model(x).detach()
        return self.model(x, cond).pow(2).mean()
