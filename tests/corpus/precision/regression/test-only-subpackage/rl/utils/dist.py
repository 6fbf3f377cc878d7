import torch.distributed as dist


def init_dist():
    dist.init_process_group(backend="gloo")
