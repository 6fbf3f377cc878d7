"""Transformer block with an activation clamp."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, use_residual=True, clip=50.0):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.use_residual = use_residual
        self.clip = clip

    def forward(self, x):
        h = self.mlp(self.norm(x))
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if h.abs().max() > self.clip:
            h = h.clamp(-self.clip, self.clip)
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if self.use_residual:
            h = h + x
        return h


def check_batch(batch):
    # ok: dynamic-graph.data-dependent-branch-in-forward
    if torch.isnan(batch).any():
        raise ValueError("nan in input")
    return batch


class DynamicRotaryEmbedding(nn.Module):
    """Dynamic RoPE: grows its cache when a longer position id shows up."""

    def __init__(self, dim, max_positions=2048):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim)))
        self.max_seq_len_cached = max_positions

    def forward(self, x, position_ids):
        seq_len = torch.max(position_ids) + 1
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if seq_len > self.max_seq_len_cached:
            self.max_seq_len_cached = seq_len
        longest = position_ids.shape[-1]
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if longest > self.max_seq_len_cached:
            raise ValueError("positions beyond the cache")
        # One cause, reported once: the `.item()` read, not also the branch decided by it.
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if position_ids.min().item() < 0:
            raise ValueError("negative position ids")
        last = position_ids.max().item()
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if last > 4096:
            x = x[..., :4096]
        norm = x.norm()
        norm = 1.0
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if norm > 0.5:
            x = x * norm
        freqs = position_ids.float()[..., None] * self.inv_freq
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if freqs is None:
            return x
        return x * freqs.cos()


class FastRCNNHead(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.cls = nn.Linear(dim, classes + 1)
        self.bg = classes

    def forward(self, features, gt_classes):
        logits = self.cls(features)
        fg_inds = (gt_classes >= 0) & (gt_classes < self.bg)
        num_fg = fg_inds.nonzero().numel()
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if num_fg > 0:
            logits = logits * 1.0
        count = int(fg_inds.sum())
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if count == 0:
            return logits.sum() * 0.0
        return logits


class MaskedKLLoss(nn.Module):
    def forward(self, student, teacher, mask):
        per_token = torch.nn.functional.kl_div(student, teacher, reduction="none").sum(-1)
        total = torch.sum(mask.view(-1), dim=0)
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if total == 0:
            return per_token.sum() * 0.0
        return (per_token * mask).sum() / total


class RotaryModel(nn.Module):
    def __init__(self, dim, max_positions=2048):
        super().__init__()
        self.register_buffer("freqs_cos", torch.cos(torch.arange(max_positions)[:, None] * torch.ones(dim)))
        self.max_positions = max_positions

    def forward(self, x):
        # A registered buffer is a device tensor: comparing its element reads it to the host.
        # expect: dynamic-graph.data-dependent-branch-in-forward
        if self.freqs_cos[0, 0] == 0:
            self.freqs_cos = torch.ones_like(self.freqs_cos)
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if self.max_positions > x.shape[1]:
            x = x[:, : self.max_positions]
        # ok: dynamic-graph.data-dependent-branch-in-forward
        if self.freqs_cos is None:
            return x
        return x * self.freqs_cos[: x.shape[1]]
