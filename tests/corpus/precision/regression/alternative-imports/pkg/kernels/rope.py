import triton
import triton.language as tl


@triton.jit
def _rope_kernel(x_ptr, n):
    pass


def fused_rope(x):
    _rope_kernel[(1,)](x, x.numel())
    return x
