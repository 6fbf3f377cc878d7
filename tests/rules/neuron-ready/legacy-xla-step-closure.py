"""Logging deferred to the end of the XLA step."""
import torch
import torch_xla.core.xla_model as xm


def log(loss):
    print(loss.item())


def train(model, loader, optimizer):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        # expect: neuron-ready.legacy-xla-step-closure
        xm.add_step_closure(log, (loss.detach(),))
        # ok: neuron-ready.legacy-xla-step-closure
        log(loss.detach())
