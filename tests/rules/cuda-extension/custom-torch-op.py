"""Attention block calling ops registered by a compiled extension."""
import torch
import torch.nn.functional as F
from torch import nn

# expect: cuda-extension.custom-torch-op
torch.ops.load_library("build/libfused_attention.so")


class FusedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.heads = heads

    def forward(self, x, cos, sin):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        # expect: cuda-extension.custom-torch-op
        q, k = torch.ops.fused_attention.rotary(q, k, cos, sin)
        # expect: cuda-extension.custom-torch-op
        out = torch.ops.fused_attention.flash_fwd.default(q, k, v, True)
        # ok: cuda-extension.custom-torch-op
        out = torch.ops.aten.gelu.default(out)
        # ok: cuda-extension.custom-torch-op
        return torch.ops.aten.view(out, x.shape) + F.silu(x)


def all_gather(t, group_size, tag, ranks):
    # ok: cuda-extension.custom-torch-op
    return torch.ops._c10d_functional.all_gather_into_tensor(t, group_size, tag)
