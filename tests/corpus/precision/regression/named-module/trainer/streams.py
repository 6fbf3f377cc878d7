"""Stream helpers for users of the package (definitions only: API, not a plugin)."""
import torch


def side_stream() -> torch.cuda.Stream:
    return torch.cuda.Stream()
