import torch
import triton
import triton.language as tl


@triton.jit
def scan_kernel(x_ptr, n):
    pid = tl.program_id(0)
    tl.store(x_ptr + pid, tl.load(x_ptr + pid) + 1)


def scan(x):
    scan_kernel[(x.numel(),)](x, x.numel())
    torch.cuda.synchronize()
    return x
