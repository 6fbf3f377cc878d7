import torch
import triton
import triton.language as tl

__all__ = ["rms_scale"]


@triton.jit
def _rms_scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 0.5, mask=mask)


def rms_scale(x):
    out = torch.empty_like(x)
    n = x.numel()
    _rms_scale_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out
