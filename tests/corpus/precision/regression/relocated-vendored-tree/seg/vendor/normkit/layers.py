import torch
from torch import nn


class SyncNorm(nn.BatchNorm2d):
    def forward(self, x):
        if x.abs().max().item() > 1e4:
            x = x.clamp(-1e4, 1e4)
        return super().forward(x)
