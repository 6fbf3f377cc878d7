import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask, store=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if store is not None:  # generation: keys and values come from the store
            return self._forward_inference(q, k, v, mask, store)
        return self._forward_training(q, k, v)

    def _forward_inference(self, q, k, v, mask, store):
        lengths = mask.sum(-1)
        keep = k[mask]
        store["k"] = keep
        return torch.softmax(q @ k.transpose(-1, -2), -1) @ v, lengths.max().item()

    def _forward_training(self, q, k, v):
        scale = q.abs().max().item()
        q = q / max(scale, 1.0)
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
