"""A Llama-style block whose feed-forward uses xformers' SwiGLU, and attention through xformers' kernel."""
import torch
import xformers.ops as xops
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        # expect: cuda-library.portable-fallback-call
        # ok: cuda-library.cuda-only-library-call
        self.ffn = xops.SwiGLU(dim, hidden, bias=False)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        # ok: cuda-library.portable-fallback-call
        # expect: cuda-library.cuda-only-library-call
        attn = xops.memory_efficient_attention(q, k, v)
        # expect: cuda-library.portable-fallback-call
        # ok: cuda-library.cuda-only-library-call
        w1, w2 = xops.unbind(torch.stack([self.qkv.weight, self.qkv.weight]), dim=0)
        return x + attn + self.ffn(x)
