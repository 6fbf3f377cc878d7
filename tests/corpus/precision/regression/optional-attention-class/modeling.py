import torch
import torch.nn.functional as F
from torch import nn

flash_attn_varlen_func = None
try:
    from flash_attn import flash_attn_varlen_func as _flash_attn_varlen_func

    flash_attn_varlen_func = _flash_attn_varlen_func
    has_flash_attn = True
except ImportError:
    has_flash_attn = False


def _get_unpad_data(attention_mask):
    seqlens = attention_mask.sum(dim=-1, dtype=torch.int32)
    indices = torch.nonzero(attention_mask.flatten(), as_tuple=False).flatten()
    max_seqlen = seqlens.max().item()
    cu_seqlens = F.pad(torch.cumsum(seqlens, dim=0, dtype=torch.int32), (1, 0))
    return indices, cu_seqlens, max_seqlen


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, hidden, attention_mask):
        q, k, v = self.qkv(hidden).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v)


class FlashAttention2(Attention):
    def forward(self, hidden, attention_mask):
        q, k, v = self.qkv(hidden).chunk(3, dim=-1)
        indices, cu_seqlens, max_seqlen = _get_unpad_data(attention_mask)
        out = flash_attn_varlen_func(q.flatten(0, 1)[indices], k.flatten(0, 1)[indices], v.flatten(0, 1)[indices],
                                     cu_seqlens, cu_seqlens, max_seqlen, max_seqlen)
        return out


ATTENTION_CLASSES = {"eager": Attention, "flash_attention_2": FlashAttention2}


class Block(nn.Module):
    def __init__(self, dim, attn_implementation):
        super().__init__()
        self.attention = ATTENTION_CLASSES[attn_implementation](dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, hidden, attention_mask):
        hidden = hidden + self.attention(hidden, attention_mask)
        keep = attention_mask.bool()
        return hidden + self.mlp(hidden)[keep].sum() * 0


class Model(nn.Module):
    def __init__(self, dim=64, layers=2, attn_implementation="flash_attention_2"):
        super().__init__()
        if not has_flash_attn:
            attn_implementation = "eager"
        self.blocks = nn.ModuleList([Block(dim, attn_implementation) for _ in range(layers)])

    def forward(self, hidden, attention_mask):
        for block in self.blocks:
            hidden = block(hidden, attention_mask)
        return hidden
