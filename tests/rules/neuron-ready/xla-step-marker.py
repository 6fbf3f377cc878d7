# target: xla
"""XLA training loop."""
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        # expect: neuron-ready.xla-step-marker
        xm.optimizer_step(optimizer)
        # expect: neuron-ready.xla-step-marker
        xm.mark_step()
    # expect: neuron-ready.xla-step-marker
    torch_xla.sync()
    # ok: neuron-ready.xla-step-marker
    return xm.xla_device()
