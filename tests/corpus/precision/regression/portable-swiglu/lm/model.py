import torch
import torch.nn.functional as F
import xformers.ops as xops
from torch import nn


class SwiGLUTorch(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w12 = nn.Linear(dim, 2 * hidden, bias=False)
        self.w3 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        a, b = self.w12(x).chunk(2, dim=-1)
        return self.w3(F.silu(a) * b)


class Block(nn.Module):
    def __init__(self, dim, heads, ffn_type="swiglu"):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        if ffn_type == "swiglu":
            self.ffn = xops.SwiGLU(dim, 4 * dim, dim, bias=False)
        else:
            self.ffn = SwiGLUTorch(dim, 4 * dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        attn = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.out(attn.transpose(1, 2).reshape(b, t, d))
        return x + self.ffn(x)


def train(steps=100):
    model = nn.Sequential(*[Block(512, 8) for _ in range(4)])
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(steps):
        loss = model(torch.randn(2, 64, 512)).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    train()
