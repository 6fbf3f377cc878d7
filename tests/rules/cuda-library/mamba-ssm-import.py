"""Hybrid Mamba block."""
import torch
from torch import nn

# expect: cuda-library.mamba-ssm-import
from mamba_ssm import Mamba2
# expect: cuda-library.mamba-ssm-import
from mamba_ssm.ops.selective_scan_interface import selective_scan_fn
# expect: cuda-library.mamba-ssm-import
from causal_conv1d import causal_conv1d_fn

try:
    # ok: cuda-library.mamba-ssm-import
    from mamba_ssm.ops.triton.layer_norm import RMSNorm
except ImportError:
    # ok: cuda-library.mamba-ssm-import
    from torch.nn import RMSNorm


class HybridBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = RMSNorm(dim)
        self.mixer = Mamba2(d_model=dim)

    def forward(self, x):
        return x + self.mixer(self.norm(x))
