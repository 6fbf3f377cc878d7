"""Throughput measurement for the training loop."""
from __future__ import annotations

import time

import torch


class Throughput:
    """Samples per second between two lap() calls. lap() waits for queued GPU work first, so call it
    only every few steps."""

    def __init__(self) -> None:
        self._samples = 0
        self._since = time.perf_counter()

    def add(self, samples: int) -> None:
        self._samples += samples

    def lap(self) -> float:
        torch.cuda.synchronize()
        now = time.perf_counter()
        rate = self._samples / max(now - self._since, 1e-9)
        self._samples, self._since = 0, now
        return rate
