"""Layers that call the extensions the repo's subfolder builds declare."""
import torch
from torch import nn

# expect: cuda-extension.compiled-extension-import
import fused_mlp_lib as fused_dense_cuda
# expect: cuda-extension.compiled-extension-import
import fused_attn_3._C
# ok: cuda-extension.compiled-extension-import
import host_pack
# ok: cuda-extension.compiled-extension-import
import amp_C
# ok: cuda-extension.compiled-extension-import
import fused_attn_3
# ok: cuda-extension.compiled-extension-import
import dev_kernels
# ok: cuda-extension.compiled-extension-import
import fused_mlp_library


class FusedDense(nn.Linear):
    def forward(self, x):
        return fused_dense_cuda.linear_bias_forward(x, self.weight, self.bias)


class FusedAttention(nn.Module):
    def forward(self, q, k, v):
        return torch.ops.fused_attn_3.fwd(q, k, v)


def pack(x):
    return host_pack.pack(x, fused_attn_3.__version__, dev_kernels.VERSION, fused_mlp_library.NAME)
