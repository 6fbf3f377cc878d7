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
