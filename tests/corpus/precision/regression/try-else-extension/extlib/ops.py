from extlib import _C


def fused_bias_gelu(x, bias):
    return _C.fused_bias_gelu(x, bias)
