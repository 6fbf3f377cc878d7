"""MoE block with optional kernel packages."""
import torch
# expect: cuda-library.cuda-kernel-package-import
import grouped_gemm as gg
# expect: cuda-library.cuda-kernel-package-import
from cut_cross_entropy import linear_cross_entropy
# expect: cuda-library.cuda-kernel-package-import
from torchao.float8 import convert_to_float8_training
# ok: cuda-library.cuda-kernel-package-import
from torchao.dtypes import NF4Tensor

try:
    # ok: cuda-library.cuda-kernel-package-import
    from ring_flash_attn import zigzag_ring_flash_attn_func
except ImportError:
    zigzag_ring_flash_attn_func = None


def experts(x, w, batch_sizes):
    return gg.ops.gmm(x, w, batch_sizes)
