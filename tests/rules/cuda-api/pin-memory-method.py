"""A custom batch type with pinned memory, as in the DataLoader docs."""
import torch


class SimpleCustomBatch:
    def __init__(self, data):
        transposed = list(zip(*data))
        self.inp = torch.stack(transposed[0], 0)
        self.tgt = torch.stack(transposed[1], 0)

    def pin_memory(self):
        # expect: cuda-api.pin-memory-method
        self.inp = self.inp.pin_memory()
        # expect: cuda-api.pin-memory-method
        self.tgt = self.tgt.pin_memory()
        return self


def to_device(batch, device):
    # ok: cuda-api.pin-memory-method
    return batch.to(device, non_blocking=False)
