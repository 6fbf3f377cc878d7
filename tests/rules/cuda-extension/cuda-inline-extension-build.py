"""Rotary embedding with an inline CUDA kernel, built on first use."""
import json

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline
from torch.utils import cpp_extension as ce

CPP_SRC = "torch::Tensor rope_forward(torch::Tensor q, torch::Tensor cos, torch::Tensor sin);"
CUDA_SRC = r"""
__global__ void rope_kernel(float* q, const float* cos, const float* sin, int n) { /* ... */ }
torch::Tensor rope_forward(torch::Tensor q, torch::Tensor cos, torch::Tensor sin) { return q; }
"""

# expect: cuda-extension.cuda-inline-extension-build
_rope = load_inline(name="rope_ext", cpp_sources=[CPP_SRC], cuda_sources=[CUDA_SRC], functions=["rope_forward"])


def build_fused_gelu(verbose=False):
    # expect: cuda-extension.cuda-inline-extension-build
    return ce.load_inline(
        name="fused_gelu",
        cpp_sources="torch::Tensor gelu(torch::Tensor x);",
        cuda_sources=open("csrc/gelu.cu").read(),
        verbose=verbose,
    )


# ok: cuda-extension.cuda-inline-extension-build
_cpu_pack = load_inline(name="pack_bits", cpp_sources=["torch::Tensor pack(torch::Tensor x) { return x; }"])


class KernelCache:
    def load_inline(self, name, cuda_sources):
        return self._cache.get(name)

    def get(self, name):
        # ok: cuda-extension.cuda-inline-extension-build
        return self.load_inline(name, cuda_sources="...")


def read_config(path):
    with open(path) as f:
        # ok: cuda-extension.cuda-inline-extension-build
        return json.load(f)
