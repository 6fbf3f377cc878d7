import triton
import triton.language as tl


@triton.jit
def _rope_kernel(q_ptr, cos_ptr, sin_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    q = tl.load(q_ptr + offs, mask=mask)
    tl.store(q_ptr + offs, q * tl.load(cos_ptr + offs, mask=mask) + q * tl.load(sin_ptr + offs, mask=mask), mask=mask)


def fast_rope(q, cos, sin):
    _rope_kernel[(triton.cdiv(q.numel(), 1024),)](q, cos, sin, q.numel(), BLOCK=1024)
    return q
