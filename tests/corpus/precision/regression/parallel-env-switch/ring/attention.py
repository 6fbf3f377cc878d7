import os

import torch

from ring.comm import RingComm


def apply_context_parallel(model, cp_world_size):
    # On only when the sequence is split over more than one rank.
    os.environ["RING_ATTENTION"] = "1" if cp_world_size > 1 else "0"
    return model


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(16, 16)
        self.comm = RingComm()

    def forward(self, x):
        if os.getenv("RING_ATTENTION", "0") == "1":
            self.comm.wait()
        if os.getenv("SYNC_EVERY_LAYER", "0") == "1":
            torch.cuda.synchronize()
        return self.proj(x)
