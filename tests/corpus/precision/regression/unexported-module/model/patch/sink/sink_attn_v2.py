import torch
import triton
import triton.language as tl


@triton.jit
def _sink_fwd_kernel(q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(q_ptr + offs, mask=offs < n), mask=offs < n)


def sink_attn_func(q):
    out = torch.empty_like(q)
    _sink_fwd_kernel[(1,)](q, out, q.numel(), BLOCK=1024)
    return out
