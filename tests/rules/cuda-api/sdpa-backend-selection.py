"""Attention with an explicit SDPA kernel choice."""
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def attention(q, k, v):
    # expect: cuda-api.sdpa-backend-selection
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def legacy_attention(q, k, v):
    # expect: cuda-api.sdpa-backend-selection
    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):
        # ok: cuda-api.sdpa-backend-selection
        return F.scaled_dot_product_attention(q, k, v)
