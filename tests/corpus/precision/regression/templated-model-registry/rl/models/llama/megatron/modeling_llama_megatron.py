import torch
from flash_attn import flash_attn_varlen_func
from torch import nn


class ParallelLlamaForCausalLM(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, hidden, cu_seqlens, max_seqlen):
        q, k, v = self.qkv(hidden).chunk(3, dim=-1)
        return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen)


class ParallelLlamaForValue(ParallelLlamaForCausalLM):
    pass
