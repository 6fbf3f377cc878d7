"""Span extraction head."""
import torch
from torch import nn


class SpanHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, hidden, mask):
        scores = self.score(hidden).squeeze(-1)
        # expect: dynamic-graph.single-argument-where
        rows, cols = torch.where(mask)
        # ok: dynamic-graph.single-argument-where
        scores = torch.where(mask, scores, torch.full_like(scores, -1e4))
        widths = torch.tensor([s.shape[-1] for s in self.spans])
        # ok: dynamic-graph.single-argument-where
        (wide,) = torch.where(widths > 4)
        on_device = widths.to(hidden.device)
        # expect: dynamic-graph.single-argument-where
        (kept,) = torch.where(on_device > 4)
        return scores, rows, cols, wide, kept
