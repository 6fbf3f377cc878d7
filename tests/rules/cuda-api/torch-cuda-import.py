"""Mixed-precision training loop (pre-2.4 style imports)."""
# expect: cuda-api.torch-cuda-import
from torch.cuda import nvtx
# expect: cuda-api.torch-cuda-import
from torch.cuda.amp import GradScaler, autocast
# ok: cuda-api.torch-cuda-import
import torch.nn as nn


def train(model, loader, optimizer):
    scaler = GradScaler()
    for batch in loader:
        nvtx.range_push("step")
        with autocast():
            loss = model(**batch).loss
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        nvtx.range_pop()
