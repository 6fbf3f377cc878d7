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


def max_memory_map(max_memory_mb):
    if torch.cuda.is_available():
        # expect-medium: cuda-api.cuda-device-count
        n_gpus = torch.cuda.device_count()
    # without CUDA n_gpus is never set: the next line fails, so the branch is no fallback
    return {i: f"{max_memory_mb}MB" for i in range(n_gpus)}


def devices_with_default():
    count = 1
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-device-count
        count = torch.cuda.device_count()
    return list(range(count))


def report_devices(log):
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-device-count
        gpus = torch.cuda.device_count()
        log(f"{gpus} GPUs")
    log.flush()


def log_devices():
    # ok: cuda-api.cuda-device-count
    print("device_count:", torch.cuda.device_count())
