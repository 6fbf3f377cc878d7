"""Varlen attention for packed sequences."""
import torch
from torch import nn
import torch.nn.functional as F

from flash_attn import flash_attn_func, flash_attn_varlen_func
from flash_attn.bert_padding import pad_input, unpad_input


class PackedAttention(nn.Module):
    def __init__(self, dim, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads, self.head_dim, self.dropout = n_heads, dim // n_heads, dropout
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)

    def forward(self, x, attention_mask=None):
        b, s, _ = x.shape
        qkv = self.wqkv(x).view(b, s, 3, self.n_heads, self.head_dim)
        if attention_mask is None:
            q, k, v = qkv.unbind(2)
            # expect: cuda-library.flash-attn-call
            return flash_attn_func(q, k, v, dropout_p=self.dropout, causal=True)
        # ok: cuda-library.flash-attn-call
        qkv_unpad, indices, cu_seqlens, max_s, _ = unpad_input(qkv, attention_mask)
        q, k, v = qkv_unpad.unbind(1)
        # expect: cuda-library.flash-attn-call
        out = flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_s, max_s, causal=True)
        # ok: cuda-library.flash-attn-call
        return pad_input(out, indices, b, s)

    def reference(self, q, k, v):
        # ok: cuda-library.flash-attn-call
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def unpad_for_packing(hidden, attention_mask):
    from flash_attn.bert_padding import unpad_input

    # ok: cuda-library.flash-attn-call
    return unpad_input(hidden, attention_mask)


def gather_sequence_parallel(hidden, group):
    from flash_attn.utils.distributed import all_gather

    # ok: cuda-library.flash-attn-call
    return all_gather(hidden, group)


class KernelModuleAttention(nn.Module):
    """A flash-attn module built once and called in every forward."""

    def __init__(self, dropout=0.0):
        super().__init__()
        from flash_attn.flash_attention import FlashAttention

        # expect: cuda-library.flash-attn-call
        self.inner_attn = FlashAttention(attention_dropout=dropout)
        self.proj = nn.Linear(64, 64)

    def forward(self, qkv):
        # expect: cuda-library.flash-attn-call
        out, _ = self.inner_attn(qkv, causal=True)
        # ok: cuda-library.flash-attn-call
        return self.proj(out)


def fused_loss_step(model, batch, optimizer):
    from flash_attn.losses.cross_entropy import CrossEntropyLoss

    # expect: cuda-library.flash-attn-call
    loss_fn = CrossEntropyLoss(inplace_backward=True)
    logits = model(batch["input_ids"])
    # expect: cuda-library.flash-attn-call
    loss = loss_fn(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))
    loss.backward()
    optimizer.step()
    reference = nn.CrossEntropyLoss()
    # ok: cuda-library.flash-attn-call
    return reference(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))


class HeldKernelAttention(nn.Module):
    """The kernel function kept in an attribute in __init__, called in every forward."""

    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.attn_fn = flash_attn_func
        self.reference_fn = F.scaled_dot_product_attention

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        # expect: cuda-library.flash-attn-call
        out = self.attn_fn(q, k, v, causal=True)
        # ok: cuda-library.flash-attn-call
        return out + self.reference_fn(q, k, v, is_causal=True)
