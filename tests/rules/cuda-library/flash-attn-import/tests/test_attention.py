"""Compares the flash-attn path with SDPA; test code is not reported."""
import torch
# ok: cuda-library.flash-attn-import
from flash_attn import flash_attn_func


def test_matches_sdpa():
    q = k = v = torch.randn(1, 16, 4, 32, dtype=torch.float16)
    ref = torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
    assert torch.allclose(flash_attn_func(q, k, v), ref.transpose(1, 2), atol=1e-2)
