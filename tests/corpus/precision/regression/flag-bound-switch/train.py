from dataclasses import dataclass

import torch

from vit import Attention


@dataclass
class Config:
    use_flash_attn: bool = True
    use_fused: bool = True
    fast_path: bool = True


def main():
    model = Attention(Config())
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(32, 64), torch.tensor([0, 32], dtype=torch.int32), 32).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
