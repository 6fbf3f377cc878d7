import torch
import torch.nn.functional as F


def fused_norm(x, weight, eps=1e-6):
    # The op is registered by the compiled extension built from csrc/ (CUDA only).
    return torch.ops.mylib.fused_norm(x, weight, eps)


def portable_norm(x, weight, eps=1e-6):
    return F.layer_norm(x, x.shape[-1:], weight, eps=eps)


def norm_with_fallback(x, weight):
    if torch.cuda.is_available():
        return torch.ops.mylib.fused_norm(x, weight, 1e-6)
    return portable_norm(x, weight)
