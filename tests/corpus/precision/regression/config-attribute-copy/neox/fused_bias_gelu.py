import fused_bias_gelu_cuda


def bias_gelu(x, bias):
    return fused_bias_gelu_cuda.forward(x, bias)
