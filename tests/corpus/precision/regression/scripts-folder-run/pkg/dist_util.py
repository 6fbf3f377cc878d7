import torch
import torch.distributed as dist


def setup_dist():
    dist.init_process_group(backend="nccl")
    torch.cuda.set_device(dist.get_rank())
