import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        scale = x.abs().max().item()
        return self.proj(x / scale)


def layer_types(module):
    import inspect

    return [name for name, _ in inspect.getmembers(module, inspect.isclass)]
