import torch
import triton
import triton.language as tl


# expect-low: cuda-extension.triton-kernel
@triton.jit
def _round_up_kernel(src_ptr, dst_ptr, n, MULTIPLE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(src_ptr + offs, mask=offs < n, other=0)
    tl.store(dst_ptr + offs, (v + MULTIPLE - 1) // MULTIPLE * MULTIPLE, mask=offs < n)


def round_up(counts, multiple=16):
    out = torch.empty_like(counts)
    _round_up_kernel[(1,)](counts, out, counts.numel(), MULTIPLE=multiple, BLOCK=1024)
    return out
