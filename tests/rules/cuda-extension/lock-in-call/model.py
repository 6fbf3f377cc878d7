import torch
from torch import nn

from mylib import fused_norm, portable_norm, rms_scale
from mylib.ops import norm_with_fallback
from mylib.rotary import ApplyRotaryEmb, apply_rotary_emb_func, plain_rotary


def pre_norm(x, weight):
    # ok: cuda-extension.lock-in-call
    return fused_norm(x, weight)


class Block(nn.Module):
    def __init__(self, dim, use_fused=False):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.proj = nn.Linear(dim, dim)
        self.use_fused = use_fused

    def forward(self, x):
        # expect: cuda-extension.lock-in-call
        h = fused_norm(x, self.weight)
        # expect: cuda-extension.lock-in-call
        h = h + pre_norm(x, self.weight)
        # expect: cuda-extension.lock-in-call
        h = rms_scale(h)
        # ok: cuda-extension.lock-in-call
        h = portable_norm(h, self.weight)
        # ok: cuda-extension.lock-in-call
        h = norm_with_fallback(h, self.weight)
        # expect: cuda-extension.lock-in-call
        h = apply_rotary_emb_func(h, self.weight, self.weight)
        # expect: cuda-extension.lock-in-call
        h = ApplyRotaryEmb.apply(h, self.weight, self.weight)
        # ok: cuda-extension.lock-in-call
        h = plain_rotary(h, self.weight, self.weight)
        if torch.cuda.is_available():
            # expect-low: cuda-extension.lock-in-call
            h = fused_norm(h, self.weight)
        return self.proj(h)


class Model(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.first = Block(dim)

    def forward(self, x):
        # ok: cuda-extension.lock-in-call
        x = self.first(x)
        for block in self.blocks:
            x = block(x)
        return x.mean()
