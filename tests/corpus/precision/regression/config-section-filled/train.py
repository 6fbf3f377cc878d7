import sys
from dataclasses import dataclass
from typing import Optional

import torch
import yaml
from torch import nn


@dataclass
class EvalArgs:
    every: int = 100


@dataclass
class QuantArgs:
    bits: int = 4


@dataclass
class TrainArgs:
    steps: int = 1000
    eval: Optional[EvalArgs] = None
    quant: Optional[QuantArgs] = None


def main(path):
    args = TrainArgs(**yaml.safe_load(open(path)))
    model = nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    if args.quant is not None and (args.quant.bits == 4 or args.quant.bits == 8):
        torch.cuda.synchronize()
    for step in range(args.steps):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if args.eval is not None and (step > args.steps // 2 or step == args.steps - 1):
            torch.cuda.synchronize()


if __name__ == "__main__":
    main(sys.argv[1])
