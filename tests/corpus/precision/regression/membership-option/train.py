"""A model whose FFN and attention kernels are picked by name from a config dataclass."""
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class BlockConfig:
    ffn_type: str = "mlp"
    attn_impl: str = "flash"


class Block(nn.Module):
    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.cfg = cfg
        self.ffn = nn.Linear(16, 16)

    def forward(self, x):
        if self.cfg.ffn_type in ("moe", "dmoe"):
            from megablocks import ops

            x = ops.gather(x)
        if self.cfg.attn_impl not in ("torch", "eager"):
            from flash_attn import flash_attn_func

            x = flash_attn_func(x, x, x)
        return self.ffn(x)


def main():
    model = Block(BlockConfig())
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(2, 8, 16)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
