import os

import torch


def build_engine(weight, scale):
    """Packs the expert weights once; folding the scales is an A/B switch for numerics debugging."""
    fold_enabled = os.environ.get("ENGINE_PTS_FOLD", "0") == "1"
    packed = weight.to(torch.bfloat16)
    if scale is not None:
        if fold_enabled:
            torch.cuda.synchronize()
            ref = float(scale.max())
            if ref > 0:
                packed = packed * (scale / ref)
    return packed


def step_timing(loss):
    sync = os.environ.get("ENGINE_SYNC_TIMING", "1") == "1"
    if sync:
        torch.cuda.synchronize()
    return loss.item()
