import torch
from torch import nn


class RotatedAlign(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.size = size

    def forward(self, x, rois):
        return torch.ops.boxops.roi_align_rotated_forward(x, rois, self.size)


class AlignedPool(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.size = size

    def forward(self, x, rois):
        return torch.ops.boxops.roi_align_v2_forward(x, rois, self.size)
