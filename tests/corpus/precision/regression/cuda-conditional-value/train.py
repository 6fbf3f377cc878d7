import sys

import torch
from launch import init_distributed, init_from_env, init_when_asked


def main(args):
    if args.url:
        init_distributed(args.url, args.world_size, args.rank)
    elif args.env:
        init_from_env()
    else:
        init_when_asked(args)
    model = torch.nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(sys.argv)
