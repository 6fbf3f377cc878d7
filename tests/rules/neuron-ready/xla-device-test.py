"""Lit-GPT-style model code with a TPU (PyTorch/XLA) special case."""
import torch


class GPT(torch.nn.Module):
    def reset_cache(self):
        # expect: neuron-ready.xla-device-test
        if self.mask_cache is not None and self.mask_cache.device.type == "xla":
            self.mask_cache = None
        # ok: neuron-ready.xla-device-test
        self.to(torch.device("xla"))
        # ok: neuron-ready.xla-device-test
        if self.mask_cache.device.type == "neuron":
            self.mask_cache = None
