"""Training script written for the XLA-based torch-neuronx."""
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def main(model):
    # expect: neuron-ready.legacy-xla-device
    device = xm.xla_device()
    # expect: neuron-ready.legacy-xla-device
    other = torch_xla.device()
    # ok: neuron-ready.legacy-xla-device
    native = torch.device("neuron")
    # ok: neuron-ready.legacy-xla-device
    model.to(native)
    return device, other
