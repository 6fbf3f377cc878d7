"""Launcher arithmetic based on the number of GPUs."""
import os

import torch


def world_size():
    # expect: cuda-api.cuda-device-count
    return int(os.environ.get("NNODES", 1)) * torch.cuda.device_count()


def per_device_batch(global_batch):
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-device-count
        return global_batch // torch.cuda.device_count()
    # ok: cuda-api.cuda-device-count
    return global_batch // torch.accelerator.device_count()
