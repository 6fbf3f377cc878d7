"""Memory logging and profiling ranges in the training loop."""
import logging

import torch

log = logging.getLogger(__name__)


def log_memory(step):
    # expect: cuda-api.cuda-memory-and-profiling-api
    alloc = torch.cuda.memory_allocated() / 2**30
    # expect: cuda-api.cuda-memory-and-profiling-api
    peak = torch.cuda.max_memory_allocated() / 2**30
    log.info("step %d alloc %.1fG peak %.1fG", step, alloc, peak)


def train_step(model, batch, optimizer):
    # expect: cuda-api.cuda-memory-and-profiling-api
    torch.cuda.nvtx.range_push("forward")
    loss = model(**batch).loss
    # expect: cuda-api.cuda-memory-and-profiling-api
    torch.cuda.nvtx.range_pop()
    loss.backward()
    optimizer.step()


def cleanup():
    if torch.cuda.is_available():
        # expect-low: cuda-api.cuda-memory-and-profiling-api
        torch.cuda.reset_peak_memory_stats()
        # ok: cuda-api.cuda-memory-and-profiling-api
        torch.cuda.empty_cache()
    # ok: cuda-api.cuda-memory-and-profiling-api
    torch.manual_seed(0)
