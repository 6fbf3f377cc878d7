"""nanoGPT-style configuration globals."""
import torch
import torch.distributed as dist

# expect: cuda-api.nccl-backend-setting
backend = "nccl"  # 'nccl', 'gloo', etc.
device = "cuda"


class DistConfig:
    def __init__(self):
        # expect: cuda-api.nccl-backend-setting
        self.dist_backend = "nccl"
        # ok: cuda-api.nccl-backend-setting
        self.timeout_minutes = 30


def init(cfg):
    if torch.cuda.is_available():
        # expect-low: cuda-api.nccl-backend-setting
        cfg.dist_backend = "nccl"
    # ok: cuda-api.nccl-backend-setting
    rendezvous_backend = "c10d"
    dist.init_process_group(backend=cfg.dist_backend)
    return rendezvous_backend


def pick_backend():
    # expect-low: cuda-api.nccl-backend-setting
    dist_backend = "nccl" if torch.cuda.is_available() else "gloo"
    return dist_backend


def distributed_backend(device_type: str) -> str:
    """torchtitan/torchtune style: the device's registered backend replaces the NCCL default."""
    # expect-low: cuda-api.nccl-backend-setting
    backend = "nccl"
    if device_type in dist.Backend.default_device_backend_map:
        backend = dist.Backend.default_device_backend_map.get(device_type)
    return backend


def default_backend(device):
    # expect-low: cuda-api.nccl-backend-setting
    backend = "nccl"
    if device.type != "cpu":
        backend = dist.get_default_backend_for_device(device)
    return backend


def fixed_backend():
    # expect: cuda-api.nccl-backend-setting
    backend = "nccl"
    dist.init_process_group(backend=backend)
