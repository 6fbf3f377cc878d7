import torch
import torch.nn.functional as F
from torch import nn

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None

try:
    import bitsandbytes as bnb
except ImportError:
    bnb = None


class Attention(nn.Module):
    """Calls the kernel whether or not the import worked: without flash-attn, `None(...)` fails."""

    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return flash_attn_func(q, k, v, causal=True)


class GuardedAttention(nn.Module):
    """Asks whether the import worked, and runs SDPA when it did not."""

    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if flash_attn_func is not None:
            return flash_attn_func(q, k, v, causal=True)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def dequantized(weight):
    if bnb is not None and hasattr(weight, "quant_state"):
        return bnb.functional.dequantize_4bit(weight.data, weight.quant_state).float()
    return weight.data.float()


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = Attention(dim)
        self.guarded = GuardedAttention(dim)

    def forward(self, x):
        return self.guarded(self.attn(x))
