"""BERT pretraining setup with apex fused kernels."""
import torch
from torch import nn

# expect: cuda-library.apex-import
from apex.optimizers import FusedLAMB
# expect: cuda-library.apex-import
from apex.normalization import FusedLayerNorm
# expect: cuda-library.apex-import
from apex import amp

try:
    # ok: cuda-library.apex-import
    from apex.normalization import FusedRMSNorm as RMSNorm
except ImportError:
    # ok: cuda-library.apex-import
    from torch.nn import RMSNorm


def build(model, lr):
    optimizer = FusedLAMB(model.parameters(), lr=lr, weight_decay=0.01)
    model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
    return model, optimizer
