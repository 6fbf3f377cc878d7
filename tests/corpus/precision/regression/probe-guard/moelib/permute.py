import torch
import triton
import triton.language as tl


@triton.jit
def _align_counts_kernel(counts_ptr, out_ptr, n, ALIGN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c = tl.load(counts_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, (c + ALIGN - 1) // ALIGN * ALIGN, mask=offs < n)


def aligned_counts(counts, align=16):
    out = torch.empty_like(counts)
    _align_counts_kernel[(1,)](counts, out, counts.numel(), ALIGN=align, BLOCK=triton.next_power_of_2(counts.numel()))
    return out
