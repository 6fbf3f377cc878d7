import torch
from torch import nn


def scale(x):
    return x * 2


class ScaledHead(nn.Module):
    """Users build it: `from lib.extra import ScaledHead`."""

    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return scale(x)
