import torch
import triton
import triton.language as tl


@triton.jit
def _flatten_kernel(out_ptr, lse_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(lse_ptr + offs, mask=offs < n), mask=offs < n)


def flatten_lse(lse, cu_seqlens):
    out = torch.empty_like(lse)
    with torch.cuda.device(lse.device.index):
        _flatten_kernel[(triton.cdiv(lse.numel(), 64),)](out, lse, lse.numel(), BLOCK=64)
    return out


@triton.jit
def _scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


def scale(x):
    _scale_kernel[(triton.cdiv(x.numel(), 64),)](x, x.numel(), BLOCK=64)
    return x


try:
    from fused_rope import apply_rope
except ImportError:
    def apply_rope(q, freqs):
        return q * freqs


@torch.jit.script
def flatten_lse(lse, cu_seqlens):
    return torch.cat([lse[i, :, : cu_seqlens[i + 1] - cu_seqlens[i]] for i in range(lse.shape[0])], dim=1)


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    @property
    def width(self):
        return self.proj.out_features

    @width.setter
    def width(self, value):
        self.proj = torch.nn.Linear(value, value)

    def forward(self, x, lse, cu_seqlens):
        return scale(self.proj(x)) + flatten_lse(lse, cu_seqlens).sum()
