import argparse

import torch
import torch.distributed as dist
from torch import nn
from torch.utils.tensorboard import SummaryWriter


def train(model, optimizer, args, writer):
    for step in range(args.steps):
        x = torch.randn(16, 64)
        loss = model(x).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if args.rank == 0:
            writer.add_scalar("loss", loss.item(), step)
        if args.profile:
            torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rank", default=-1, type=int)
    parser.add_argument("--steps", default=1000, type=int)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.rank >= 0:
        dist.init_process_group("gloo", rank=args.rank)
    model = nn.Linear(64, 64)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, args, SummaryWriter() if args.rank == 0 else None)


if __name__ == "__main__":
    main()
