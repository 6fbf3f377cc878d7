import os

import torch.distributed as dist


def init_distributed():
    if "WORLD_SIZE" not in os.environ:
        return 1, 0
    dist.init_process_group(backend="nccl", init_method="env://")
    return dist.get_world_size(), dist.get_rank()
