import torch
import transformers
from flash_attn.flash_attn_interface import flash_attn_unpadded_qkvpacked_func

from . import tensor_ops


class LlamaAttention(torch.nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.qkv = torch.nn.Linear(dim, 3 * dim)

    def forward(self, hidden, mask):
        packed, indices, cu_seqlens, max_seqlen = tensor_ops.unpad(self.qkv(hidden), mask)
        return flash_attn_unpadded_qkvpacked_func(packed, cu_seqlens, max_seqlen, 0.0, causal=True)


class LlamaForCausalLM(transformers.LlamaForCausalLM):
    pass
