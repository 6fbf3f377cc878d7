import torch
from torch import nn


def fused_scan(x, weight):
    return torch.cumsum(x * weight, dim=1)


class BlockConfig:
    @property
    def is_recurrent(self) -> bool:
        return False


class RecurrentBlockConfig(BlockConfig):
    is_recurrent = True


class ScanBlock(nn.Module):
    def __init__(self, dim: int, use_fused_path: bool = True, use_slow_norm: bool = False):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.use_fused_path = use_fused_path
        self.use_slow_norm = use_slow_norm

    def forward(self, x, inference_params=None, config=BlockConfig()):
        if self.use_fused_path and inference_params is None:
            out = fused_scan(x, self.weight)
        else:
            scale = x.abs().max().item()
            out = torch.cumsum(x / scale, dim=1)
        if not self.use_fused_path:
            out = out.cuda()
        if not self.use_slow_norm:
            peak = out.abs().max().item()
            out = out / peak
        if config.is_recurrent:
            out = torch.cumsum(out, dim=1)
        else:
            top = out.abs().max().item()
            out = out / top
        return out
