"""Benchmark a few training steps under the profiler."""
import torch
from torch.profiler import ProfilerActivity


def profile_steps(model, batch, optimizer, steps=5):
    with torch.profiler.profile(
        # expect: cuda-api.profiler-cuda-activity
        activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
        schedule=torch.profiler.schedule(wait=1, warmup=1, active=3),
    ) as prof:
        for _ in range(steps):
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            prof.step()
    # expect: cuda-api.profiler-cuda-activity
    cuda_only = [ProfilerActivity.CUDA]
    # ok: cuda-api.profiler-cuda-activity
    cpu_only = [ProfilerActivity.CPU]
    return prof, cuda_only, cpu_only
