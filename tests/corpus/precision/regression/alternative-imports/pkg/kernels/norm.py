import triton
import triton.language as tl


@triton.jit
def _norm_kernel(x_ptr, n):
    pass


def fused_norm(x):
    _norm_kernel[(1,)](x, x.numel())
    return x
