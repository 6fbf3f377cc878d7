import torch
from torch import nn

# ok: cuda-extension.compiled-extension-import
from .utils import normalized_shape


class FusedLayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape(dim)))
        self.eps = eps

    def forward(self, x):
        return torch.nn.functional.layer_norm(x, self.weight.shape, self.weight, None, self.eps)
