import copy

import torch
import torch.nn.functional as F
from torch import nn

from mptlite.config_defaults import attn_config_defaults


def gen_rotary_embedding(rope_impl, dim):
    if rope_impl == "dail":
        from flash_attn.layers.rotary import RotaryEmbedding

        return RotaryEmbedding(dim)
    return None


def sequence_mask(sequence_id, attn_uses_sequence_id, seq_len):
    if sequence_id is not None and attn_uses_sequence_id:
        if sequence_id.max() >= seq_len:
            raise ValueError("sequence ids out of range")
        return sequence_id.unsqueeze(-1) == sequence_id.unsqueeze(-2)
    return None


class ModelConfig:
    def __init__(self, d_model=256, n_heads=4, attn_config=None):
        self.d_model = d_model
        self.n_heads = n_heads
        self.attn_config = attn_config if attn_config is not None else copy.deepcopy(attn_config_defaults)


class Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.rope = config.attn_config["rope"]
        self.alibi = config.attn_config["alibi"]
        self.attn_uses_sequence_id = config.attn_config["attn_uses_sequence_id"]
        if self.rope:
            self.rotary = gen_rotary_embedding(config.attn_config["rope_impl"], config.d_model // config.n_heads)
        if self.alibi:
            from flash_attn.bert_padding import unpad_input

            self.unpad = unpad_input
        self.qkv = nn.Linear(config.d_model, 3 * config.d_model)

    def forward(self, x, sequence_id=None):
        mask = sequence_mask(sequence_id, self.attn_uses_sequence_id, x.shape[1])
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
