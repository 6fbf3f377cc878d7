"""Process-group setup for multi-node training."""
import os

import torch
import torch.distributed as dist
from torch.distributed import init_process_group

from . import nccl


def setup():
    # expect: cuda-api.nccl-backend
    dist.init_process_group(backend="nccl", init_method="env://")
    # expect: cuda-api.nccl-backend
    tp_group = dist.new_group(ranks=[0, 1], backend="nccl")
    return tp_group


def setup_positional():
    # expect: cuda-api.nccl-backend
    init_process_group("nccl")


def setup_portable():
    if torch.cuda.is_available():
        # expect-low: cuda-api.nccl-backend
        dist.init_process_group(backend="nccl")
    else:
        # ok: cuda-api.nccl-backend
        dist.init_process_group(backend="gloo")


def reduce_grads(grads):
    # ok: cuda-api.nccl-backend
    return nccl.all_reduce(grads, op="sum")


def launch_worker(dist_url, world_size, rank):
    has_gpu = torch.cuda.is_available()
    # expect: cuda-api.nccl-backend
    dist.init_process_group(
        backend="NCCL" if has_gpu else "GLOO",
        init_method=dist_url,
        world_size=world_size,
        rank=rank,
    )
