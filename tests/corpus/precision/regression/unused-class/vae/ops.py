import torch
from torch import nn

__all__ = ["ConvLayer", "UpSampleLayer", "ScaledLayer", "TPConv"]


class ConvLayer(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return self.conv(x)


class UpSampleLayer(nn.Module):
    def __init__(self, factor=2):
        super(UpSampleLayer, self).__init__()
        self.factor = factor

    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return nn.functional.interpolate(x, scale_factor=self.factor)


class ScaledLayer(nn.Module):
    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return x * 2


class TPConv(nn.Conv2d):
    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return super().forward(x)

    @staticmethod
    def from_native_module(module):
        return TPConv(module.in_channels, module.out_channels, module.kernel_size)


def check_layers(model):
    return [m for m in model.modules() if isinstance(m, ScaledLayer)]


class FromConfig(nn.Module):
    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return x + 1
