"""Deformable convolutions: the modulated variant only when a block asks for it."""
import torch
from torch import nn

try:
    from convlib import _ext
except ImportError:
    _msg = "convlib is not compiled"
    ModulatedConv = None


class _ModulatedConv(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, offset):
        return torch.ops.convlib.modulated_conv(x, offset)


class ModulatedConv(nn.Module):
    def __init__(self):
        super(ModulatedConv, self).__init__()

    def forward(self, x, offset):
        return _ModulatedConv.apply(x, offset)


class OffsetConv(nn.Module):
    def forward(self, x, offset):
        return torch.ops.convlib.offset_conv(x, offset)


class PlainConv(nn.Module):
    def forward(self, x, offset):
        return x + offset


def make_stub(name, message):
    return type(name, (), {"message": message})


if _ext is None:
    ModulatedConv = make_stub("ModulatedConv", "convlib is not compiled")
