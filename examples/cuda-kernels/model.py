"""GPT with switch (top-1) mixture-of-experts MLPs, flash attention and fused kernels."""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from flash_attn import flash_attn_func

from kernels import apply_rotary, fused_rms_norm, swiglu


@dataclass
class GPTConfig:
    vocab_size: int = 50304
    max_seq_len: int = 2048
    d_model: int = 1024
    n_layer: int = 16
    n_head: int = 16
    n_experts: int = 8
    d_expert: int = 2816
    capacity_factor: float = 1.25
    aux_loss_weight: float = 0.01
    starved_penalty: float = 2.0
    dropout: float = 0.0
    rope_base: float = 10000.0


class FusedRMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return fused_rms_norm(x, self.weight, self.eps)


class Attention(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.n_head = cfg.n_head
        self.head_dim = cfg.d_model // cfg.n_head
        self.dropout = cfg.dropout
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x, cos, sin):
        batch, seq_len, _ = x.shape
        q, k, v = self.qkv(x).view(batch, seq_len, 3, self.n_head, self.head_dim).unbind(dim=2)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        y = flash_attn_func(q, k, v.contiguous(), dropout_p=self.dropout if self.training else 0.0, causal=True)
        return self.proj(y.reshape(batch, seq_len, -1))


class Expert(nn.Module):
    def __init__(self, d_model: int, d_hidden: int):
        super().__init__()
        self.gate = nn.Linear(d_model, d_hidden, bias=False)
        self.up = nn.Linear(d_model, d_hidden, bias=False)
        self.down = nn.Linear(d_hidden, d_model, bias=False)

    def forward(self, x):
        return self.down(swiglu(self.gate(x), self.up(x)))


class SwitchMoE(nn.Module):
    """Top-1 routing with a per-expert capacity; overflow tokens skip the MLP (residual only)."""

    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.n_experts = cfg.n_experts
        self.capacity_factor = cfg.capacity_factor
        self.starved_penalty = cfg.starved_penalty
        self.router = nn.Linear(cfg.d_model, cfg.n_experts, bias=False)
        self.experts = nn.ModuleList(Expert(cfg.d_model, cfg.d_expert) for _ in range(cfg.n_experts))
        self.aux_loss = torch.zeros(())
        self.dropped_tokens = 0

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        probs = self.router(tokens).float().softmax(dim=-1)
        gate, expert_idx = probs.max(dim=-1)
        tokens_per_expert = torch.bincount(expert_idx, minlength=self.n_experts)
        capacity = int(self.capacity_factor * tokens.shape[0] / self.n_experts)
        self.dropped_tokens += (tokens_per_expert - capacity).clamp(min=0).sum().item()

        fraction = tokens_per_expert.float() / tokens.shape[0]
        balance = self.n_experts * (fraction * probs.mean(dim=0)).sum()
        if (tokens_per_expert == 0).any():
            balance = balance * self.starved_penalty
        self.aux_loss = balance

        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            idx = (expert_idx == e).nonzero(as_tuple=True)[0]
            if idx.numel() == 0:
                continue
            idx = idx[:capacity]
            routed = expert(tokens[idx]) * gate[idx, None]
            out.index_add_(0, idx, routed.to(out.dtype))
        return out.view_as(x)


class Block(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.norm1 = FusedRMSNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.norm2 = FusedRMSNorm(cfg.d_model)
        self.moe = SwitchMoE(cfg)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.norm1(x), cos, sin)
        return x + self.moe(self.norm2(x))


class GPT(nn.Module):
    def __init__(self, cfg: GPTConfig):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.norm_f = FusedRMSNorm(cfg.d_model)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight
        half = cfg.d_model // cfg.n_head // 2
        inv_freq = 1.0 / cfg.rope_base ** (torch.arange(half, dtype=torch.float32) / half)
        angles = torch.outer(torch.arange(cfg.max_seq_len, dtype=torch.float32), inv_freq)
        self.register_buffer("rope_cos", angles.cos(), persistent=False)
        self.register_buffer("rope_sin", angles.sin(), persistent=False)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, input_ids, targets=None):
        seq_len = input_ids.shape[1]
        cos, sin = self.rope_cos[:seq_len], self.rope_sin[:seq_len]
        x = self.wte(input_ids)
        for block in self.blocks:
            x = block(x, cos, sin)
        logits = self.lm_head(self.norm_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-100)
        aux = sum(block.moe.aux_loss for block in self.blocks)
        return logits, loss + self.cfg.aux_loss_weight * aux

    def pop_dropped_tokens(self) -> int:
        dropped = sum(block.moe.dropped_tokens for block in self.blocks)
        for block in self.blocks:
            block.moe.dropped_tokens = 0
        return dropped
