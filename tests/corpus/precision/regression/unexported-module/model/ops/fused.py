import torch


def fused_gelu(x):
    return torch.nn.functional.gelu(x)
