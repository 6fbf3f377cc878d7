from collections import defaultdict

import torch


class SmoothedValue:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)


def log_losses(meters, **losses):
    """Adds each loss to its meter (tensors are read back to the host first)."""
    for name, value in losses.items():
        value = value.item() if isinstance(value, torch.Tensor) else value
        meters[name].update(value)
