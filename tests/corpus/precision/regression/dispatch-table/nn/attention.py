import torch
import torch.nn.functional as F


def get_ring_attention():
    """Imported lazily: the Triton kernels load only when this implementation is chosen."""
    from nn.ring_triton import ring_attention

    return ring_attention


def sdpa_forward(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def flash_forward(q, k, v):
    from flash_attn import flash_attn_func

    return flash_attn_func(q, k, v, causal=True)


def eager_forward(q, k, v):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ v


ATTENTION_FUNCTIONS = {
    "sdpa": sdpa_forward,
    "flash_attention_2": flash_forward,
    "eager": eager_forward,
    "ring_triton": lambda *args, **kwargs: get_ring_attention()(*args, **kwargs),
}
