"""Fused softmax written in Triton, with a PyTorch reference path."""
import functools

import torch
import triton
import triton.language as tl
from triton import jit as triton_jit


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4)], key=["n_cols"])
# expect: cuda-extension.triton-kernel
@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * n_cols + offs, mask=offs < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * n_cols + offs, num / tl.sum(num, axis=0), mask=offs < n_cols)


# expect: cuda-extension.triton-kernel
@triton_jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs), mask=offs < n)


# ok: cuda-extension.triton-kernel
@functools.lru_cache(maxsize=None)
def block_size(n_cols):
    return triton.next_power_of_2(n_cols)


# ok: cuda-extension.triton-kernel
@torch.no_grad()
def softmax(x):
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](out, x, x.shape[1], BLOCK=block_size(x.shape[1]))
    return out
