"""Step timing for the benchmark script."""
import time

import torch


def timed_step(model, batch, optimizer):
    """Runs one step; callers used to call torch.cuda.synchronize() themselves."""
    # expect: cuda-api.cuda-synchronize
    torch.cuda.synchronize()
    start = time.perf_counter()
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    # expect: cuda-api.cuda-synchronize
    torch.cuda.synchronize(device=None)
    return time.perf_counter() - start


def wait(device):
    if device.type == "cuda":
        # expect-low: cuda-api.cuda-synchronize
        torch.cuda.synchronize()
    # torch.cuda.synchronize() is not needed on the host
    # ok: cuda-api.cuda-synchronize
    return time.perf_counter()
