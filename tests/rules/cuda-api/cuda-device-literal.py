"""Evaluation harness with hard-coded devices."""
import argparse

import torch

# ok: cuda-api.cuda-device-literal
cuda_available = False


def parse_args():
    parser = argparse.ArgumentParser()
    # expect: cuda-api.cuda-device-literal
    parser.add_argument("--device", default="cuda")
    return parser.parse_args()


def load(model, rank):
    # expect: cuda-api.cuda-device-literal
    device = torch.device("cuda", rank)
    # expect: cuda-api.cuda-device-literal
    model.to("cuda:0")
    # expect: cuda-api.cuda-device-literal
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        return model


def pick_device():
    # ok: cuda-api.cuda-device-literal
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(device)


def describe(device):
    # ok: cuda-api.cuda-device-literal
    if device.type == "cuda":
        return "gpu"
    return "host"


from enum import Enum


class DeviceType(str, Enum):
    # An enum member names a device to compare against; it puts nothing on a device.
    # ok: cuda-api.cuda-device-literal
    CUDA = "cuda"
    CPU = "cpu"


def setup_ddp(local_rank, backend_name):
    # A device type with a computed index is still a CUDA device.
    # expect: cuda-api.cuda-device-literal
    device = f"cuda:{local_rank}"
    # expect: cuda-api.cuda-device-literal
    target = torch.device(f"cuda:{torch.cuda.current_device()}")
    # ok: cuda-api.cuda-device-literal
    name = f"{backend_name}:{local_rank}"
    # ok: cuda-api.cuda-device-literal
    tag = f"cuda:{local_rank}-{backend_name}"
    return device, target, name, tag


def out_of_memory_types():
    # An attribute looked up by name on torch puts nothing on a device.
    # ok: cuda-api.cuda-device-literal
    cuda_oom = getattr(getattr(torch, "cuda", None), "OutOfMemoryError", None)
    # ok: cuda-api.cuda-device-literal
    has_cuda = hasattr(torch, "cuda")
    return cuda_oom, has_cuda


def safe_device(try_device: str):
    # A string method testing the device a user asked for names no device of its own.
    # ok: cuda-api.cuda-device-literal
    if try_device.startswith("cuda"):
        return torch.device(try_device)
    # ok: cuda-api.cuda-device-literal
    if str(try_device).find("cuda:") >= 0:
        return torch.device(try_device)
    return torch.device("cpu")
