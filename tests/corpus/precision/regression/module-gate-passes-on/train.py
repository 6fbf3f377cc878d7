import argparse

import torch
from torch import nn

from kernels.norm import fused_norm


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fused_moe", action="store_true")
    args = parser.parse_args()
    if args.fused_moe:
        import kernels.moe  # noqa: F401  registers the fused MoE patch
    model = nn.Linear(64, 64)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = fused_norm(model(torch.randn(8, 64))).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
