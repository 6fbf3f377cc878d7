"""Decides at import time whether the fused kernels can be used here, and falls back to PyTorch if not."""
import torch

try:
    import bitsandbytes as bnb
except ImportError:
    bnb = None


def check_native_kernels(bnb_module):
    functional = getattr(bnb_module, "functional", None)
    if functional is None:
        import bitsandbytes.functional as functional
    if functional.lib is None:
        raise AttributeError("bitsandbytes native library did not load")


def native_kernels_ready(bnb_module):
    try:
        check_native_kernels(bnb_module)
    except Exception:
        return False
    return True


def fused_attention_runs():
    try:
        q = torch.zeros((1, 8, 1, 64), device="cuda", dtype=torch.float16)
        torch.nn.functional.scaled_dot_product_attention(q, q, q)
        torch.cuda.synchronize()
        return True
    except Exception:
        return False


def warm_up():
    try:
        torch.cuda.synchronize()
    except RuntimeError:
        return False
    return True


USE_NATIVE = native_kernels_ready(bnb)
USE_FUSED_ATTENTION = fused_attention_runs()
WARM = warm_up()
