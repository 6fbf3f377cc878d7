"""Imported by the training script directly, not through the package."""
import torch


def rms_norm(x):
    torch.cuda.synchronize()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
