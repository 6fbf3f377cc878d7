import torch


def fused_norm(x):
    torch.cuda.synchronize()
    return x / x.norm(dim=-1, keepdim=True)
