import fused_rotary_positional_embedding


def fused_apply_rotary_pos_emb(t, cos, sin):
    return fused_rotary_positional_embedding.forward(t, cos, sin)
