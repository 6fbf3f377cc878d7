"""Times each training step with CUDA events."""
import time

import torch


def train(model, loader, optimizer, log_every: int = 10):
    for step, batch in enumerate(loader):
        # expect: cuda-api.cuda-event-timer
        start = torch.cuda.Event(enable_timing=True)
        # expect: cuda-api.cuda-event-timer
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        loss = model(batch).mean()
        loss.backward()
        optimizer.step()
        end.record()
        # ok: cuda-api.cuda-event-timer
        copy_done = torch.cuda.Event()
        copy_done.record()
        # ok: cuda-api.cuda-event-timer
        tick = time.perf_counter()
        if step % log_every == 0:
            torch.cuda.synchronize()
            print(step, start.elapsed_time(end), tick)
