import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torchvision

parser = argparse.ArgumentParser(description="ImageNet training")
parser.add_argument("--epochs", default=90, type=int)
parser.add_argument("--world-size", default=-1, type=int, help="number of nodes for distributed training")
parser.add_argument("--dist-backend", default="nccl", type=str)
parser.add_argument("--multiprocessing-distributed", action="store_true")
parser.add_argument("--hostfile", type=str, help="MPI-style hostfile of the resource pool")


def main():
    args = parser.parse_args()
    args.distributed = args.world_size > 1 or args.multiprocessing_distributed
    if args.hostfile is not None or os.path.exists("/job/hostfile"):
        slots = open(args.hostfile or "/job/hostfile").read().count("slots")
    else:
        slots = torch.cuda.device_count()
    if args.multiprocessing_distributed:
        mp.spawn(main_worker, nprocs=slots, args=(args,))
    else:
        main_worker(0, args)


def main_worker(gpu, args):
    if args.distributed:
        dist.init_process_group(backend=args.dist_backend, world_size=args.world_size, rank=gpu)
    model = torchvision.models.resnet18()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(args.epochs):
        loss = model(torch.randn(8, 3, 224, 224)).logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
