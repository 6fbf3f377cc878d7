"""Tensor-parallel feed-forward blocks that fold the collectives into the GEMMs."""
import torch
from torch import nn


class FusedFeedForward(nn.Module):
    """Selected only by tp_gemm_backend="dist_gemm"."""

    def __init__(self, dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, group_name: str) -> torch.Tensor:
        _, out = torch.ops.symm_mem.fused_all_gather_matmul(x, [self.w1.weight], 0, group_name)
        return out[0]


class FusedAttentionOut(nn.Module):
    """Selected by fuse_out, which is on by default."""

    def __init__(self, dim: int):
        super().__init__()
        self.wo = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, group_name: str) -> torch.Tensor:
        return torch.ops.symm_mem.fused_matmul_reduce_scatter(x, self.wo.weight.t(), "sum", 0, group_name)


class FusedNorm(nn.Module):
    """Chosen under an opt-in flag here, but also listed in a registry any config can pick from."""

    def __init__(self, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.fused_kernels.rms_norm(x, self.weight)
