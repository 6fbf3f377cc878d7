"""Device-agnostic helpers."""
import torch


def current_device():
    # expect: neuron-ready.torch-accelerator-api
    if torch.accelerator.is_available():
        # expect: neuron-ready.torch-accelerator-api
        return torch.accelerator.current_accelerator()
    # ok: neuron-ready.torch-accelerator-api
    return torch.device("cpu")
