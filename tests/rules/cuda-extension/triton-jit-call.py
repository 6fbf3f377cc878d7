"""Kernels wrapped with triton.jit at import time (no decorator syntax)."""
import json

import triton
import triton.language as tl


def _scale_impl(x_ptr, out_ptr, scale, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * scale, mask=offs < n)


# expect: cuda-extension.triton-jit-call
scale_kernel = triton.jit(_scale_impl)

KERNELS = {
    # expect: cuda-extension.triton-jit-call
    "scale": triton.jit(_scale_impl, do_not_specialize=["n"]),
}

# ok: cuda-extension.triton-jit-call
BLOCK = triton.next_power_of_2(1000)


# ok: cuda-extension.triton-jit-call
@triton.jit(do_not_specialize=["n"])
def _shift_kernel(x_ptr, out_ptr, shift, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + shift, mask=offs < n)

# ok: cuda-extension.triton-jit-call
tuning = json.loads('{"BLOCK": 1024}')
