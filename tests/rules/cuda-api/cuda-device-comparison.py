"""Device setup helpers of a fine-tuning library."""
import torch


def get_device(device=None):
    device = torch.device(device or "cpu")
    # expect: cuda-api.cuda-device-comparison
    if device.type in ["cuda", "npu", "xpu", "hpu"]:
        torch.set_default_device(device)
    return device


def free_memory(device):
    # expect: cuda-api.cuda-device-comparison
    if device.type == "cuda":
        torch.cuda.empty_cache()
    # ok: cuda-api.cuda-device-comparison
    elif device.type == "cpu":
        pass


# ok: cuda-api.cuda-device-comparison
SUPPORTED = ["cuda", "cpu"]
