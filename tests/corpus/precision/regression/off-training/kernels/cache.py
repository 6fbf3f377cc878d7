# A decoding cache: only generation calls it, through `self.kv_cache(...)`.
from typing import Optional

import torch


class RingKVCache(torch.nn.Module):
    def __init__(self, length: int, dim: int) -> None:
        super().__init__()
        self.register_buffer("keys", torch.zeros(1, length, dim))
        self.register_buffer("pos", torch.zeros(1, dtype=torch.long))

    def size(self) -> int:
        return self.pos[0].item()

    def forward(self, input_pos: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        last = input_pos.max().item()
        self.keys[:, input_pos] = k
        return self.keys[:, : last + 1]


class CachedAttention(torch.nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.qkv = torch.nn.Linear(dim, 2 * dim)
        self.kv_cache: Optional[RingKVCache] = None

    def forward(self, x: torch.Tensor, input_pos: Optional[torch.Tensor] = None) -> torch.Tensor:
        q, k = self.qkv(x).chunk(2, dim=-1)
        if input_pos is not None:
            k = self.kv_cache(input_pos, k)
        scale = x.size(-1) ** -0.5
        return torch.softmax(q @ k.transpose(-1, -2) * scale, dim=-1) @ k
