import torch
from torch import nn

flash_attn_varlen_func = None
try:
    from flash_attn import flash_attn_varlen_func as _flash_attn_varlen_func

    flash_attn_varlen_func = _flash_attn_varlen_func
    has_flash_attn = True
except:  # noqa: E722
    has_flash_attn = False

try:
    from flash_attn import flash_attn_func
except ImportError:
    print("flash-attn is required: pip install flash-attn")


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


try:
    from apex.normalization import FusedRMSNorm

    RMSNorm = FusedRMSNorm  # noqa: F811
except ImportError:
    pass


class VarlenAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.norm = RMSNorm(dim)

    def forward(self, x, cu_seqlens, max_seqlen):
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen)


class DenseAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return flash_attn_func(q, k, v, causal=True)
