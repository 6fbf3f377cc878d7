"""Workarounds applied at import time of a training script."""
import torch

try:
    import torch_xla.core.xla_model as xm
except ImportError:
    xm = None

# expect: cuda-api.torch-cuda-patch
torch.cuda.empty_cache = lambda: None
# ok: cuda-api.torch-cuda-patch
torch.cuda.is_bf16_supported = lambda: True  # Neuron's bf16 shim: neuron-ready.cuda-bf16-patch reports it
# ok: cuda-api.torch-cuda-patch
torch.backends.cudnn.benchmark = True
