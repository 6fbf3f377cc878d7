"""Optimizer wrappers, re-exported by the package."""
from .amp_optimizer import AMPOptimizer
from .fused_optimizer import FusedOptimizer
