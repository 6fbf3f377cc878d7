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
    # NCCL only where CUDA is, GLOO elsewhere: guarded, the other side must still become "neuron".
    # expect-low: cuda-api.nccl-backend
    dist.init_process_group(
        backend="NCCL" if has_gpu else "GLOO",
        init_method=dist_url,
        world_size=world_size,
        rank=rank,
    )


def init_from_local(dist_url):
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    # expect-low: cuda-api.nccl-backend
    dist.init_process_group(backend=backend, init_method=dist_url)


def init_from_literal_local(dist_url):
    backend = "nccl"
    # expect: cuda-api.nccl-backend
    dist.init_process_group(backend=backend, init_method=dist_url)


def init_when_distributed(args):
    # A run option, not a CUDA check: NCCL whenever the run is distributed.
    # expect: cuda-api.nccl-backend
    dist.init_process_group(backend="nccl" if args.distributed else "gloo")


def init_portable_local(dist_url):
    backend = "gloo"
    # ok: cuda-api.nccl-backend
    dist.init_process_group(backend=backend, init_method=dist_url)


def parse_args():
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--dist-backend", default="nccl", type=str, help="distributed backend")
    parser.add_argument("--pg-backend", default="gloo", type=str)
    return parser.parse_args()


def init_from_option(args):
    # The option's default is NCCL: the run uses it unless the user passes another backend.
    # expect: cuda-api.nccl-backend
    torch.distributed.init_process_group(backend=args.dist_backend, init_method="env://")


def init_from_portable_option(args):
    # ok: cuda-api.nccl-backend
    torch.distributed.init_process_group(backend=args.pg_backend, init_method="env://")
