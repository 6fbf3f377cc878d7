import torch


def select_matvec(weight):
    if (weight.device.type, weight.dtype) == ("cuda", torch.float16):
        from .cuda_kernel import GEMV

        return GEMV.gemv
    return torch.mv
