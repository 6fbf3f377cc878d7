import torch
from torch import nn

from moe.capability import supports_grouped_gemm


class GroupedExperts(nn.Module):
    def __init__(self, n_experts, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_experts, dim, dim) * 0.02)
        self.grouped = supports_grouped_gemm()

    def forward(self, x, counts):
        if self.grouped:
            from moe.pad import round_up

            return torch._grouped_mm(x, self.weight, offs=round_up(counts).cumsum(0))
        chunks = x.split(counts.tolist())
        return torch.cat([c @ w for c, w in zip(chunks, self.weight)])
