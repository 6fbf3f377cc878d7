"""A small decoder-only transformer (rung 5: a kernel-heavy research model)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load

import moe_dispatch_cuda
import rotary_cuda
from flash_attn import flash_attn_func

from ops.triton_ops import cross_entropy, layer_norm

_attn = load(name="fused_attn", sources=["csrc/fused_attn.cu"], extra_cuda_cflags=["-O3"])


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        q, k = rotary_cuda.apply(q, k)
        y = flash_attn_func(q, k, v, causal=True) if self.heads > 4 else _attn.fused_attn(q, k, v)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class MLP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, 4 * dim)
        self.out = nn.Linear(4 * dim, dim)

    def forward(self, x):
        scores = self.fc(x)
        top = scores.argmax(dim=-1)
        if top.max().item() > 0:
            routed = moe_dispatch_cuda.dispatch(scores, top)
            chosen = routed[torch.nonzero(top)]
            return self.out(F.gelu(chosen))
        return self.out(F.gelu(scores))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = MLP(dim)

    def forward(self, x):
        x = x + self.attn(layer_norm(x, self.ln1.weight))
        return x + self.mlp(layer_norm(x, self.ln2.weight))


class GPT(nn.Module):
    def __init__(self, vocab, dim=512, heads=8, layers=8, block_size=1024):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(block_size, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * layers))

    def forward(self, idx, targets):
        t = idx.size(1)
        pos = torch.arange(t, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln(x))
        return cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
