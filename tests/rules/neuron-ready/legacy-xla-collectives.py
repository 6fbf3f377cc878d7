"""Gradient reduction and ranks through PyTorch/XLA."""
import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm
import torch_xla.runtime as xr


def step(model, optimizer, loss):
    loss.backward()
    # expect: neuron-ready.legacy-xla-collectives
    xm.optimizer_step(optimizer)
    # expect: neuron-ready.legacy-xla-collectives
    reduced = xm.all_reduce(xm.REDUCE_SUM, loss.detach())
    # expect: neuron-ready.legacy-xla-collectives
    world = xr.world_size()
    # ok: neuron-ready.legacy-xla-collectives
    rank = dist.get_rank()
    # ok: neuron-ready.legacy-xla-collectives
    dist.all_reduce(loss)
    return reduced, world, rank
