"""Attention patched into a Hugging Face model: a training forward and a KV-cache decode step."""
import torch.nn.functional as F

from fastlm.kernels import fast_rope


def LlamaAttention_fast_forward_inference(self, hidden_states, past_key_value, position_ids):
    q = self.q_proj(hidden_states)
    q = fast_rope(q, self.cos[position_ids], self.sin[position_ids])
    k, v = past_key_value
    return F.scaled_dot_product_attention(q, k, v)


def LlamaAttention_fast_forward(self, hidden_states, position_ids):
    q = self.q_proj(hidden_states)
    k = self.k_proj(hidden_states)
    v = self.v_proj(hidden_states)
    q = fast_rope(q, self.cos[position_ids], self.sin[position_ids])
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
