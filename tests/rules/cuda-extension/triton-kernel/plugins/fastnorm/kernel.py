import torch
import triton
import triton.language as tl


# expect-low: cuda-extension.triton-kernel
@triton.jit
def _rms_norm_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    y = x * tl.rsqrt(tl.sum(x * x, 0) / n_cols + eps) * w
    tl.store(y_ptr + row * n_cols + cols, y, mask=cols < n_cols)


def rms_norm(x, weight, eps=1e-6):
    y = torch.empty_like(x)
    _rms_norm_kernel[(x.shape[0],)](x, weight, y, x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
