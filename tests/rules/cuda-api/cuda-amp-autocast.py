"""Mixed-precision training loop (older AMP API)."""
import torch
from torch.cuda.amp import autocast


def train_epoch(model, loader, optimizer, criterion):
    for x, y in loader:
        # expect: cuda-api.cuda-amp-autocast
        with torch.cuda.amp.autocast(dtype=torch.float16):
            loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def evaluate(model, x):
    # expect: cuda-api.cuda-amp-autocast
    with autocast():
        return model(x)


def evaluate_portable(model, x, device_type):
    # ok: cuda-api.cuda-amp-autocast
    with torch.autocast(device_type=device_type, dtype=torch.bfloat16):
        return model(x)
