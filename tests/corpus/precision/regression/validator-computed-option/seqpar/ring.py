import torch

from seqpar.schema import RingFn


def register_ring(ring_fn):
    if ring_fn is RingFn.BATCH:
        from ring_flash_attn import ring_flash_attn_func

        return ring_flash_attn_func
    return None
