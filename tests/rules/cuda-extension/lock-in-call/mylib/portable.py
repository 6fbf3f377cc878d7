import torch

from mylib.ops import portable_norm

_WEIGHT = torch.ones(64)
