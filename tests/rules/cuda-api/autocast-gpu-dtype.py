"""Casting helpers that follow the autocast state (apex/_autocast_utils style)."""
import torch


def cast_if_autocast_enabled(*args):
    if not torch.is_autocast_enabled():
        return args
    # expect: cuda-api.autocast-gpu-dtype
    return tuple(a.to(torch.get_autocast_gpu_dtype()) for a in args)


def cast_portable(x, device_type):
    # ok: cuda-api.autocast-gpu-dtype
    return x.to(torch.get_autocast_dtype(device_type))
