import os

import torch


def supports_fp8() -> bool:
    try:
        major, minor = torch.cuda.get_device_capability()
        return (major, minor) >= (9, 0)
    except (RuntimeError, AssertionError):
        return False


def gpu_capabilities() -> dict:
    try:
        props = torch.cuda.get_device_properties("cuda")
        arch = f"sm_{props.major}{props.minor}"
    except (RuntimeError, AssertionError):
        arch = None
    return {"fp8": supports_fp8(), "arch": arch, "world_size": int(os.environ.get("WORLD_SIZE", 1))}


def bind_device(rank: int) -> None:
    try:
        torch.cuda.set_device(rank)
    except RuntimeError as err:
        print(f"cannot bind rank {rank}: {err}")
        raise


def cuda_warm() -> bool:
    try:
        torch.cuda.synchronize()
    except RuntimeError:
        return False
    return True
