import math
import sys

import torch
from torch import nn


def train_one_epoch(model, optimizer, steps):
    for _ in range(steps):
        x = torch.randn(32, 128)
        loss = model(x).square().mean()
        if not math.isfinite(loss.item()):
            print("Loss is {}, stopping training".format(loss.item()))
            sys.exit(1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if loss.detach() > 1e6:
            print("exploding loss", loss.item())
            exit(0)


def main():
    model = nn.Linear(128, 128)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(10):
        train_one_epoch(model, optimizer, 100)


if __name__ == "__main__":
    main()
