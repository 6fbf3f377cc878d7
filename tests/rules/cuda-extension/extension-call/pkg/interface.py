import torch

from . import _C


def attention_forward(q, k, v, causal=True):
    # expect: cuda-extension.extension-call
    out, lse = _C.fwd(q, k, v, causal)
    # ok: cuda-extension.extension-call
    return out.to(torch.bfloat16), lse
