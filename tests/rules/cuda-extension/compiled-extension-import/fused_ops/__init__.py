"""Package whose kernels live in a compiled module built by setup.py."""
# expect: cuda-extension.compiled-extension-import
from . import _C
# expect: cuda-extension.compiled-extension-import
from fused_ops._ext import fused_layer_norm
# ok: cuda-extension.compiled-extension-import
from ._version import __version__
# ok: cuda-extension.compiled-extension-import
from .layers import FusedLayerNorm
# ok: cuda-extension.compiled-extension-import
import json

__all__ = ["FusedLayerNorm", "fused_layer_norm", "_C", "json", "__version__"]
