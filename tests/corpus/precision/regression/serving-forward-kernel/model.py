"""A decoder whose attention calls flash-attn."""
import torch
from flash_attn import flash_attn_func


class Decoder(torch.nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.qkv = torch.nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).unflatten(-1, (3, 4, -1)).unbind(2)
        return flash_attn_func(q, k, v, causal=True).flatten(-2)
