"""Neuron compatibility patches applied before building the Trainer."""
import torch

# expect: neuron-ready.cuda-bf16-patch
torch.cuda.is_bf16_supported = lambda: True

# ok: neuron-ready.cuda-bf16-patch
bf16_ok = torch.cuda.is_bf16_supported()
