import torch
import triton
import triton.language as tl


@triton.jit
def _ring_step_kernel(q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(q_ptr + offs, mask=offs < n), mask=offs < n)


def ring_attention(q, k, v):
    out = torch.empty_like(q)
    _ring_step_kernel[(triton.cdiv(q.numel(), 64),)](q, out, q.numel(), BLOCK=64)
    return out
