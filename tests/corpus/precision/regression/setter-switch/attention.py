import torch
from torch import nn


class CrossAttention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.use_xformers = False

    def set_use_xformers(self, xformers):
        self.use_xformers = xformers

    def forward(self, x):
        if self.use_xformers:
            return self.forward_xformers(x)
        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        return self.to_out(out)

    def forward_xformers(self, x):
        import xformers.ops

        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        out = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)
        return self.to_out(out)


class FusedAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.fused = False

    def set_fused(self, fused: bool):
        self.fused = fused

    def forward(self, x):
        if self.fused:
            import xformers.ops

            q, k, v = self.qkv(x).chunk(3, dim=-1)
            return xformers.ops.memory_efficient_attention(q, k, v)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn1 = CrossAttention(dim)
        self.attn2 = CrossAttention(dim)
        self.mix = FusedAttention(dim)

    def set_use_xformers(self, xformers):
        self.attn1.set_use_xformers(xformers)
        self.attn2.set_use_xformers(xformers)

    def forward(self, x):
        return self.mix(self.attn2(self.attn1(x)))


if __name__ == "__main__":
    block = Block(64).cuda()
    block.set_use_xformers(True)
    print(block(torch.randn(2, 16, 64, device="cuda")).shape)
