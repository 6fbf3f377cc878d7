import triton
import triton.language as tl


@triton.jit
def _rms_norm_kernel(x_ptr, out_ptr, n: tl.constexpr):
    offs = tl.arange(0, n)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


def rms_norm(x):
    out = x.clone()
    _rms_norm_kernel[(1,)](x, out, n=x.numel())
    return out
