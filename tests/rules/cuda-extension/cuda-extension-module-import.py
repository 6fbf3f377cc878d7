"""Loads prebuilt CUDA extension modules (apex / mamba style)."""
import importlib

import torch

# expect: cuda-extension.cuda-extension-module-import
import selective_scan_cuda
# expect: cuda-extension.cuda-extension-module-import
from apex import amp_C

# expect: cuda-extension.cuda-extension-module-import
import rotary_emb
# expect: cuda-extension.cuda-extension-module-import
import dropout_layer_norm as layer_norm_ext

# ok: cuda-extension.cuda-extension-module-import
import torch.cuda
# ok: cuda-extension.cuda-extension-module-import
import rotary_embedding_torch
# ok: cuda-extension.cuda-extension-module-import
from torch.backends import cuda as cuda_backend


def _load_layer_norm():
    # expect: cuda-extension.cuda-extension-module-import
    return importlib.import_module("fused_layer_norm_cuda")


def _load_json():
    # ok: cuda-extension.cuda-extension-module-import
    return importlib.import_module("json")


def selective_scan(u, delta, A, B, C):
    out, *_ = selective_scan_cuda.fwd(u, delta, A, B, C, None, None, None, False)
    return out


fused_rms_norm_cuda = None


class FusedRMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        global fused_rms_norm_cuda
        if fused_rms_norm_cuda is None:
            # expect-high: cuda-extension.cuda-extension-module-import
            fused_rms_norm_cuda = importlib.import_module("fused_rms_norm_cuda")
        return fused_rms_norm_cuda.forward(x, weight, eps)

# An availability probe is a Python predicate, whatever its name says.
# ok: cuda-extension.cuda-extension-module-import
from transformers.utils import is_torch_cuda_available

# A helper named by a verb is Python (accelerate's environment checks), "cuda" in its name or not.
# ok: cuda-extension.cuda-extension-module-import
from accelerate.utils.environment import check_cuda_p2p_ib_support
