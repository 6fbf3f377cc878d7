"""Training script written for the XLA-based torch-neuronx."""
import torch
# expect: neuron-ready.legacy-torch-xla-import
import torch_xla
# expect: neuron-ready.legacy-torch-xla-import
from torch_xla.distributed.zero_redundancy_optimizer import ZeroRedundancyOptimizer
# ok: neuron-ready.legacy-torch-xla-import
import torch_neuronx


def build(model):
    return ZeroRedundancyOptimizer(model.parameters(), torch.optim.AdamW, lr=1e-4)
