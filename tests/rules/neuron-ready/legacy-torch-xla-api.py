"""PyTorch/XLA calls the specific native-profile rules do not name."""
import torch
import torch_xla.core.xla_model as xm
import torch_xla.utils.serialization as xser
from torch_xla.utils.checkpoint import checkpoint


def get_seed(dropout_p, device):
    # expect: neuron-ready.legacy-torch-xla-api
    seed = xm.get_rng_state()
    return torch.tensor([seed], device=device)


def block(layer, hidden):
    # expect: neuron-ready.legacy-torch-xla-api
    return checkpoint(layer, hidden, use_reentrant=True)


def save(model, path):
    # expect: neuron-ready.legacy-torch-xla-api
    xm.master_print(f"saving to {path}")
    # expect: neuron-ready.legacy-torch-xla-api
    xser.save(model.state_dict(), path)
    # ok: neuron-ready.legacy-torch-xla-api
    xm.mark_step()
    # ok: neuron-ready.legacy-torch-xla-api
    torch.save(model.state_dict(), path)
