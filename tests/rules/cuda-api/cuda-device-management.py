"""Distributed launcher helpers."""
import os

import torch
import torch.distributed as dist


def setup_distributed():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    # expect: cuda-api.cuda-device-management
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend="gloo")
    # ok: cuda-api.cuda-device-management
    world = torch.cuda.device_count() * int(os.environ.get("NNODES", 1))
    return local_rank, world


def log_hardware(logger):
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-device-management
        logger.info("gpu: %s", torch.cuda.get_device_name(0))
    # ok: cuda-api.cuda-device-management
    logger.info("cpu threads: %d", torch.get_num_threads())
