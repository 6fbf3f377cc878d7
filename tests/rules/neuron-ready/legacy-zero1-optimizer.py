"""Optimizer set-up of an NxD training script."""
import torch
from neuronx_distributed.optimizer import NeuronZero1Optimizer
from torch_xla.distributed.zero_redundancy_optimizer import ZeroRedundancyOptimizer


def build(model, use_xla_zero):
    if use_xla_zero:
        # expect: neuron-ready.legacy-zero1-optimizer
        return ZeroRedundancyOptimizer(model.parameters(), torch.optim.AdamW, lr=1e-4)
    # expect: neuron-ready.legacy-zero1-optimizer
    optimizer = NeuronZero1Optimizer(
        model.parameters(),
        torch.optim.AdamW,
        lr=1e-4,
    )
    # ok: neuron-ready.legacy-zero1-optimizer
    plain = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return optimizer, plain
