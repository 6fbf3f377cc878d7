"""Ring exchange for context parallelism, with optional tracing."""
import os

import torch
import torch.distributed as dist

STEP, VERBOSE = 0, os.environ.get("RING_VERBOSE", "0") == "1"
CHECKS, LOUD = 0, True


class RingExchange(torch.autograd.Function):
    @staticmethod
    def forward(ctx, kv):
        out = torch.empty_like(kv)
        dist.all_to_all_single(out, kv)
        if VERBOSE:
            print(f"ring step {STEP}: {out}")
        if LOUD:
            print(f"ring received {out}")
        return out
