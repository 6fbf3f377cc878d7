import argparse

import torch
import torch.distributed as dist
from torch import nn

from ring import StepTimer


def exchange_boundary(activation, peer):
    recv = torch.empty_like(activation)
    ops = [dist.P2POp(dist.isend, activation, peer), dist.P2POp(dist.irecv, recv, peer)]
    [req.wait() for req in dist.batch_isend_irecv(ops)]
    return recv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    dist.init_process_group("gloo")
    model = nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    timer = StepTimer()
    for _ in range(args.steps):
        x = exchange_boundary(torch.randn(4, 16), peer=(dist.get_rank() + 1) % dist.get_world_size())
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        timer.wait()


if __name__ == "__main__":
    main()
