# target: xla
"""PyTorch/XLA calls under the XLA profile: nothing to change."""
import torch
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    # expect: neuron-ready.torch-xla-api
    device = xm.xla_device()
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        # ok: neuron-ready.torch-xla-api
        xm.optimizer_step(optimizer)
        # ok: neuron-ready.torch-xla-api
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
