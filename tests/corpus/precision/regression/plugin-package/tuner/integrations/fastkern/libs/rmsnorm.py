import torch
import triton
import triton.language as tl


@triton.jit
def _rmsnorm_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x / tl.sqrt(tl.sum(x * x) / n), mask=offs < n)


def fast_rmsnorm(x):
    out = torch.empty_like(x)
    _rmsnorm_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
    return out


def patch_rmsnorm():
    torch.nn.RMSNorm.forward = lambda self, x: fast_rmsnorm(x)
