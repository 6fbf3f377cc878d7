"""Decoder block: the KV cache is used only when one is attached (generation)."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.heads = heads
        self.kv_cache = None

    def forward(self, x, input_pos=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if self.kv_cache is not None:
            k, v = self.kv_cache(input_pos, k, v)
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=input_pos is None)
        # ok: dynamic-graph.item-in-forward
        width = torch.tensor([d]).item()
        return self.proj(y.transpose(1, 2).reshape(b, t, width))
