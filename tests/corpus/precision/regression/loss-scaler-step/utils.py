import os

import torch
import torch.distributed as dist


def init_distributed_mode(args):
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        args.rank = int(os.environ["RANK"])
        args.gpu = int(os.environ["LOCAL_RANK"])
    else:
        args.gpu = 0
        args.rank = 0
    args.distributed = "WORLD_SIZE" in os.environ
    if not args.distributed:
        return
    torch.cuda.set_device(args.gpu)
    dist.init_process_group(backend="nccl", init_method="env://")
