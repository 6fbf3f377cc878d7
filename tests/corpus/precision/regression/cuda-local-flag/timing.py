import torch


def gpu_timer(closure, log_timings=True):
    """Time a closure on the GPU when there is one."""
    log_timings = log_timings and torch.cuda.is_available()

    elapsed_time = -1.0
    if log_timings:
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()

    result = closure()

    if log_timings:
        end.record()
        torch.cuda.synchronize()
        elapsed_time = start.elapsed_time(end)

    return result, elapsed_time


def wall_timer(closure, force_sync=False):
    sync = force_sync or torch.cuda.is_available()
    result = closure()
    if sync:
        torch.cuda.synchronize()
    return result
