import argparse

import torch
from torch import nn

from optim8 import Adam8bitLike, FusedAdamLike


def build_optimizer(args, params):
    if args.optimizer.lower() == "adam8bit":
        return Adam8bitLike(params, lr=args.lr)
    if args.optimizer.upper() in ("ADAM", "ADAMW"):
        return FusedAdamLike(params, lr=args.lr)
    raise ValueError(f"unknown optimizer {args.optimizer}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", default="Adam")
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    model = nn.Linear(128, 128)
    optimizer = build_optimizer(args, model.parameters())
    for _ in range(1000):
        x = torch.randn(16, 128)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
