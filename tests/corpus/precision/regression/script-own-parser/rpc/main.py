import argparse

import torch
import torch.distributed as dist

parser = argparse.ArgumentParser(description="parameter server over RPC")
parser.add_argument("--world-size", type=int, default=2, metavar="W")
parser.add_argument("--steps", type=int, default=100)


def run(args):
    if args.world_size > 1:
        dist.init_process_group("nccl", world_size=args.world_size, rank=0)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(args.steps):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    run(parser.parse_args())
