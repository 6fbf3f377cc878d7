"""An example of the repo that trains with the repo's own Neuron library."""
import torch

# expect: neuron-ready.neuron-sdk-import
from neuronx_distributed.parallel_layers.layers import (
    ColumnParallelLinear,
)


class MLP(torch.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.up = ColumnParallelLinear(hidden, 4 * hidden)
