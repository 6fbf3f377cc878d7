import argparse
import random

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, drop_path=0.0):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.drop_path = drop_path

    def forward(self, x):
        if self.training and random.random() < self.drop_path:
            return x
        return x + self.fc(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stochastic-refine", action="store_true")
    parser.add_argument("--fast-matmul", action="store_true")
    args = parser.parse_args()
    model = nn.Sequential(Block(16, 0.1), Block(16, 0.1))
    optimizer = torch.optim.AdamW(model.parameters())
    if args.fast_matmul and torch.cuda.get_device_capability()[0] >= 8:
        torch.backends.cuda.matmul.allow_tf32 = True
    for step in range(10):
        x = torch.randn(8, 16)
        if args.stochastic_refine and random.random() < 0.5:
            with torch.no_grad():
                x = model(x).detach()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
