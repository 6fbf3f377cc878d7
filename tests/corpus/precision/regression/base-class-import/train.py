import argparse

import torch

from lowrank import FusedLowRankAdam, LowRankAdamW, LowRankAdamW8bit


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", default="lowrank_adamw")
    args = parser.parse_args()
    model = torch.nn.Linear(1024, 1024)
    if args.optimizer == "lowrank_adamw":
        optimizer = LowRankAdamW(model.parameters(), lr=1e-3)
    elif args.optimizer == "lowrank_adamw8bit":
        optimizer = LowRankAdamW8bit(model.parameters(), lr=1e-3)
    else:
        raise ValueError(args.optimizer)
    head = FusedLowRankAdam(model.parameters(), lr=1e-4)
    for _ in range(10):
        loss = model(torch.randn(8, 1024)).pow(2).mean()
        loss.backward()
        optimizer.step()
        head.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
