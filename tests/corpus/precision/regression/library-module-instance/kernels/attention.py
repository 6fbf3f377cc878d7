"""A UNet attention block whose default attention is a flash-attn module built in __init__."""
import torch
from torch import nn


class QKVFlashAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, attention_dropout=0.0, causal=False):
        from flash_attn.flash_attention import FlashAttention

        super().__init__()
        self.num_heads = num_heads
        self.causal = causal
        self.inner_attn = FlashAttention(attention_dropout=attention_dropout)

    def forward(self, qkv, key_padding_mask=None):
        b, s, _ = qkv.shape
        qkv = qkv.view(b, s, 3, self.num_heads, -1)
        out, _ = self.inner_attn(qkv, key_padding_mask=key_padding_mask, causal=self.causal)
        return out.reshape(b, s, -1)


class FallbackNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        try:
            from apex.normalization import FusedLayerNorm

            self.norm = FusedLayerNorm(dim)
        except ImportError:
            self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return self.norm(x)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.attention = QKVFlashAttention(dim, heads)
        self.norm = FallbackNorm(dim)

    def forward(self, x):
        return x + self.attention(self.qkv(self.norm(x)))
