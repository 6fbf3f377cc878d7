import argparse

import torch
from torch import nn

from optim_factory import create_optimizer, create_scheduler


def get_args():
    parser = argparse.ArgumentParser("image classifier training")
    parser.add_argument("--opt", default="adamw", type=str, help="optimizer, e.g. lookahead_fusedlamb")
    parser.add_argument("--sched", default="Plateau", type=str)
    parser.add_argument("--lr", default=4e-3, type=float)
    parser.add_argument("--epochs", default=300, type=int)
    return parser.parse_args()


def main(args):
    model = nn.Linear(256, 10)
    optimizer = create_optimizer(args, model.parameters())
    scheduler = create_scheduler(args, optimizer)
    for epoch in range(args.epochs):
        for _ in range(100):
            x = torch.randn(32, 256)
            loss = model(x).logsumexp(-1).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        if scheduler is not None:
            scheduler.step(loss.detach())


if __name__ == "__main__":
    main(get_args())
