"""Per-layer compilation of a transformer, as fine-tuning recipes do it."""
import os
import re

from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)


def compile_layers(model):
    backend = os.environ.get("TORCH_COMPILE_BACKEND", "inductor")
    for m in reversed(list(model.modules())):
        if isinstance(m, Block):
            # expect: cuda-api.module-compile-gpu-backend
            m.compile(backend=backend)


def compile_blocks(blocks, mode):
    for block in blocks:
        # expect: cuda-api.module-compile-gpu-backend
        block.compile(backend="cudagraphs")
        # ok: cuda-api.module-compile-gpu-backend
        block.compile(backend="neuron", fullgraph=True)
    # ok: cuda-api.module-compile-gpu-backend
    return re.compile(mode)
