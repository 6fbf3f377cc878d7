"""Fused cross-entropy kernels."""
import torch
# expect: cuda-library.triton-import
import triton
# expect: cuda-library.triton-import
import triton.language as tl

try:
    # ok: cuda-library.triton-import
    from triton.runtime import driver
except ImportError:
    driver = None

# ok: cuda-library.triton-import
from torch.utils._triton import has_triton


@triton.jit
def _ce_kernel(logits_ptr, labels_ptr, loss_ptr, V: tl.constexpr):
    pass
