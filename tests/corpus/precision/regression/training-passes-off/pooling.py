import torch
from torch import nn


class Pooler(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def pool_mask(self, x: torch.Tensor, return_idcs: bool = True):
        mask = self.score(x).squeeze(-1) > 0
        idcs = []
        if return_idcs:
            idcs.append(mask.nonzero(as_tuple=True)[1])
        return mask, idcs

    def keep_mask(self, x: torch.Tensor, return_kept: bool = True):
        mask = self.score(x).squeeze(-1) > 0
        kept = []
        if return_kept:
            kept.append(mask.nonzero(as_tuple=True)[1])
        return mask, kept

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mask, _ = self.pool_mask(x, return_idcs=False)
        keep, _ = self.keep_mask(x, return_kept=True)
        return x * mask.unsqueeze(-1) * keep.unsqueeze(-1)
