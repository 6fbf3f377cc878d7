"""Mixture-of-experts layer with a host-side capacity computation."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class MoELayer(nn.Module):
    def __init__(self, dim, n_experts, capacity_factor=1.25):
        super().__init__()
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))
        self.capacity_factor = capacity_factor
        self.temperature = nn.Parameter(torch.ones(()))

    def forward(self, x):
        logits = self.gate(x)
        # expect: dynamic-graph.item-in-forward
        temp = self.temperature.item()
        probs = F.softmax(logits / temp, dim=-1)
        # expect: dynamic-graph.item-in-forward
        capacity = int(self.capacity_factor * probs.sum(0).max().item())
        # The read a branch decides on is reported here, once (data-dependent-branch leaves it to this rule).
        # expect: dynamic-graph.item-in-forward
        if probs.max().item() < 1e-6:
            raise ValueError("collapsed router")
        # ok: dynamic-graph.item-in-forward
        scale = np.float32(self.capacity_factor).item()
        # A validation assert: dynamic-graph.data-dependent-assert reports it, at its own severity.
        # ok: dynamic-graph.item-in-forward
        assert (probs >= 0).all().item(), "negative router probability"
        top = probs.argmax(-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            out = out + expert(x) * (top == i).unsqueeze(-1) * scale
        return out[:, :capacity]


def summarize(history):
    # ok: dynamic-graph.item-in-forward
    return np.mean(history).item()


def report(metrics: dict):
    # ok: dynamic-graph.item-in-forward
    return {name: value for name, value in metrics.items()}
