"""Llama pretraining on Trainium with neuronx-distributed."""
import os

import torch
# expect: neuron-ready.neuron-sdk-import
import torch_neuronx
# expect: neuron-ready.neuron-sdk-import
from neuronx_distributed.parallel_layers import ColumnParallelLinear, RowParallelLinear
# expect: neuron-ready.neuron-sdk-import
from neuronx_distributed.kernels.flash_attn import nki_flash_attn_func
# expect: neuron-ready.neuron-sdk-import
from optimum.neuron import NeuronTrainer
# expect: neuron-ready.neuron-sdk-import
import neuronxcc.nki.language as nl

# ok: neuron-ready.neuron-sdk-import
from optimum.exporters import TasksManager
# ok: neuron-ready.neuron-sdk-import
import torch.distributed as dist
