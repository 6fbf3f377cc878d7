"""Rotary embedding copied from flash-attention: an autograd Function over its prebuilt extension."""
import rotary_emb
import torch


class ApplyRotaryEmb(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cos, sin):
        out = torch.empty_like(x)
        rotary_emb.apply_rotary(x, cos, sin, out, False)
        ctx.save_for_backward(cos, sin)
        return out

    @staticmethod
    def backward(ctx, grad):
        cos, sin = ctx.saved_tensors
        dx = torch.empty_like(grad)
        rotary_emb.apply_rotary(grad, cos, sin, dx, True)
        return dx, None, None


class PlainRotary(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cos, sin):
        return x * cos + x.roll(1, -1) * sin

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None


apply_rotary_emb_func = ApplyRotaryEmb.apply
plain_rotary = PlainRotary.apply
