"""Llama-style attention with a FlashAttention-2 fast path."""
import math

import torch
import torch.nn.functional as F
from torch import nn

# expect: cuda-library.flash-attn-import
from flash_attn import flash_attn_func
# expect: cuda-library.flash-attn-import
from flash_attn.bert_padding import pad_input, unpad_input
# expect: cuda-library.flash-attn-import
import flash_attn

try:
    # ok: cuda-library.flash-attn-import
    from flash_attn.layers.rotary import apply_rotary_emb
except ImportError:
    apply_rotary_emb = None

# ok: cuda-library.flash-attn-import
from torch.nn.attention import SDPBackend


class LlamaAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.n_heads, self.head_dim).unbind(2)
        out = flash_attn_func(q, k, v, causal=True, softmax_scale=1 / math.sqrt(self.head_dim))
        return self.o_proj(out.reshape(b, s, -1))
