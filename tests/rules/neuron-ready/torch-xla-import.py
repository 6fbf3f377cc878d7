# target: xla
"""Training script for the legacy XLA stack."""
import torch
# expect: neuron-ready.torch-xla-import
import torch_xla.core.xla_model as xm
# expect: neuron-ready.torch-xla-import
import torch_xla.distributed.parallel_loader as pl
# ok: neuron-ready.torch-xla-import
import torch.distributed as dist


def device():
    return xm.xla_device()
