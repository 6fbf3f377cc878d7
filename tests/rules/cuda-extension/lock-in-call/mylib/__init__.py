"""A small kernel library shipped with the training repo."""
from .ops import fused_norm, portable_norm
from .triton_ops import *
