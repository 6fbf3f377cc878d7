"""A custom autograd function with autocast decorators (fused dense style)."""
import torch
from torch.cuda.amp import custom_bwd


class FusedDenseFunc(torch.autograd.Function):
    @staticmethod
    # expect: cuda-api.cuda-amp-custom-fwd
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float16)
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return x @ weight.t()

    @staticmethod
    # expect: cuda-api.cuda-amp-custom-fwd
    @custom_bwd
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return grad @ weight, grad.t() @ x


class PortableFunc(torch.autograd.Function):
    @staticmethod
    # ok: cuda-api.cuda-amp-custom-fwd
    @torch.amp.custom_fwd(device_type="neuron")
    def forward(ctx, x):
        return x * 2


# expect: cuda-api.cuda-amp-custom-fwd
@torch.cuda.amp.autocast(dtype=torch.bfloat16)
def score(model, batch):
    return model(**batch).logits
