import torch

from .plugin import BasePlugin


class OptimizerPlugin(BasePlugin):
    pass


@OptimizerPlugin("adamw").register()
def build_adamw(model: torch.nn.Module) -> torch.optim.Optimizer:
    torch.cuda.empty_cache()
    return torch.optim.AdamW(model.parameters(), lr=1e-4)


@OptimizerPlugin("adamw8bit").register()
def build_adamw8bit(model: torch.nn.Module) -> torch.optim.Optimizer:
    import bitsandbytes as bnb

    return bnb.optim.AdamW8bit(model.parameters(), lr=1e-4)
