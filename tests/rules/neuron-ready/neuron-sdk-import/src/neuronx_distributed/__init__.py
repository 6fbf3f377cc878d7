"""The library itself: its own imports are not uses of the Neuron SDK."""
# ok: neuron-ready.neuron-sdk-import
from neuronx_distributed.parallel_layers import layers
