import torch
# ok: neuron-ready.neuron-sdk-import
from neuronx_distributed.parallel_layers import mappings
# ok: neuron-ready.neuron-sdk-import
from . import mappings as m


class ColumnParallelLinear(torch.nn.Linear):
    pass
