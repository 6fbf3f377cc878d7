import torch
import fused_dense_lib as fused_dense_cuda
import host_ops


class FusedDenseFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        # expect: cuda-extension.extension-call
        return fused_dense_cuda.linear_bias_forward(x, weight, bias)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        # expect: cuda-extension.extension-call
        grad_x, grad_w, grad_b = fused_dense_cuda.linear_bias_backward(x, weight, grad)
        return grad_x, grad_w, grad_b


def bucketize_on_host(lengths):
    # ok: cuda-extension.extension-call
    return host_ops.bucketize(lengths.cpu())
