"""A training loop that steps the Neuron device's graph on its own branch."""
import torch


def train_step(model, batch, optimizer, device):
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    # expect: neuron-ready.neuron-device-test
    if device.type == "neuron":
        torch.neuron.synchronize()
    # ok: neuron-ready.neuron-device-test
    if device.type == "xla":
        pass
    return loss
