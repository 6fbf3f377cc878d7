"""Process-group setup that picks NCCL only where CUDA is."""
import torch
import torch.distributed as dist


def init_distributed(dist_url, world_size, rank):
    has_gpu = torch.cuda.is_available()
    dist.init_process_group(
        backend="nccl" if has_gpu else "gloo", init_method=dist_url, world_size=world_size, rank=rank
    )


def init_from_env():
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)


def init_when_asked(args):
    dist.init_process_group(backend="nccl" if args.distributed else "gloo")
