import torch
from torch import nn

from kernels.scan import scan


class Block(nn.Module):
    def forward(self, x):
        return scan(x)


def train(model, loader, optimizer):
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
