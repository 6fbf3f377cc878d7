"""Profiles a few steps of the training loop with xformers' profiler when asked."""
import torch
import xformers.ops as xops
import xformers.profiler


def train(model, loader, optimizer, dump_dir: str, profile: bool = True):
    # expect: cuda-library.gpu-profiler-library
    with xformers.profiler.profile(output_dir=dump_dir, module=model):
        for batch in loader:
            q, k, v = model(batch)
            # ok: cuda-library.gpu-profiler-library
            out = xops.memory_efficient_attention(q, k, v)
            out.mean().backward()
            optimizer.step()
            # expect: cuda-library.gpu-profiler-library
            xformers.profiler.step()
            # ok: cuda-library.gpu-profiler-library
            torch.profiler.record_function("step")
