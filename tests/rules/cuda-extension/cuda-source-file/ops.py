"""Python side of the layer-norm kernel; the .cu file is what the rule reports."""
import torch

KERNEL_SOURCE = "layer_norm_kernel.cu"


def layer_norm(x, weight, bias, eps=1e-5):
    # ok: cuda-extension.cuda-source-file
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, eps)
