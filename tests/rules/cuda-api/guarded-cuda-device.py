"""Device selection with a CPU fallback."""
import torch


def pick_device(local_rank):
    # expect: cuda-api.guarded-cuda-device
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if torch.cuda.is_available():
        # expect: cuda-api.guarded-cuda-device
        return torch.device("cuda", local_rank)
    return torch.device(device)


def move(batch, device):
    # ok: cuda-api.guarded-cuda-device
    return {k: v.to("cuda") for k, v in batch.items()}


def describe(device):
    # ok: cuda-api.guarded-cuda-device
    return "gpu" if device.type == "cuda" else "host"
