"""Diffusion UNet attention using xformers."""
import torch
from torch import nn

# expect: cuda-library.xformers-import
import xformers.ops as xops
# expect: cuda-library.xformers-import
from xformers.components.attention import ScaledDotProduct

try:
    # ok: cuda-library.xformers-import
    import xformers
    XFORMERS_AVAILABLE = True
except ImportError:
    XFORMERS_AVAILABLE = False

# ok: cuda-library.xformers-import
from torch.nn.functional import scaled_dot_product_attention


class CrossAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.to_q, self.to_k, self.to_v = (nn.Linear(dim, dim) for _ in range(3))

    def forward(self, x, context):
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        if XFORMERS_AVAILABLE:
            return xops.memory_efficient_attention(q, k, v)
        return scaled_dot_product_attention(q, k, v)
