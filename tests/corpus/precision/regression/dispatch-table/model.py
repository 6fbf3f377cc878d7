from dataclasses import dataclass

import torch

from nn.attention import ATTENTION_FUNCTIONS

DEFAULT_ATTENTION = "sdpa"


@dataclass
class Config:
    dim: int = 64
    heads: int = 4
    attn_implementation: str = DEFAULT_ATTENTION


class Attention(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.qkv = torch.nn.Linear(config.dim, 3 * config.dim)
        self.out = torch.nn.Linear(config.dim, config.dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.config.heads, d // self.config.heads).unbind(2)
        attention = ATTENTION_FUNCTIONS[self.config.attn_implementation]
        if self.config.attn_implementation == "ring_triton":
            q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        return self.out(attention(q, k, v).reshape(b, t, d))
