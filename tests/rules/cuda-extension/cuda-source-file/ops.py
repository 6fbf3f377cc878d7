"""Python side of the layer-norm kernel; the .cu file is what the rule reports."""
import os

import torch
from torch.utils.cpp_extension import load

_ext = load(name="layer_norm_ext", sources=[os.path.join(os.path.dirname(__file__), "layer_norm_kernel.cu")])


def layer_norm(x, weight, bias, eps=1e-5):
    # ok: cuda-extension.cuda-source-file
    return _ext.forward(x, weight, bias, eps)
