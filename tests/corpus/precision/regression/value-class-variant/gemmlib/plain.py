import torch
from torch import nn


class FeedForward(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, group_name: str = "") -> torch.Tensor:
        return torch.relu(self.w1(x))


class AttentionOut(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.wo = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, group_name: str = "") -> torch.Tensor:
        return self.wo(x)


class RMSNorm(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.RMSNorm(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)
