"""XLA training loop scanned under the native profile."""
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        # expect: neuron-ready.legacy-xla-step-marker
        xm.mark_step()
    # expect: neuron-ready.legacy-xla-step-marker
    torch_xla.sync()
    # ok: neuron-ready.legacy-xla-step-marker
    torch.accelerator.synchronize()
