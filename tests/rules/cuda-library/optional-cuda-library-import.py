"""Attention backends chosen at import time."""
import logging

import torch

try:
    # expect: cuda-library.optional-cuda-library-import
    from flash_attn import flash_attn_func
    HAS_FLASH = True
except ImportError:
    HAS_FLASH = False

try:
    # expect: cuda-library.optional-cuda-library-import
    import xformers.ops as xops
except (ImportError, ModuleNotFoundError):
    xops = None

try:
    # expect: cuda-library.optional-cuda-library-import
    from apex.normalization import FusedRMSNorm as RMSNorm
except ImportError:
    # ok: cuda-library.optional-cuda-library-import
    from torch.nn import RMSNorm

# ok: cuda-library.optional-cuda-library-import
import deepspeed

try:
    # ok: cuda-library.optional-cuda-library-import
    import wandb
except ImportError:
    wandb = None

logging.getLogger(__name__).info("flash=%s xformers=%s", HAS_FLASH, xops is not None)
