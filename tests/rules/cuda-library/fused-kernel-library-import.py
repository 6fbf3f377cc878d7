"""Model patches for faster training on H100."""
import torch
# expect: cuda-library.fused-kernel-library-import
from liger_kernel.transformers import apply_liger_kernel_to_llama
# expect: cuda-library.fused-kernel-library-import
import transformer_engine.pytorch as te
# expect: cuda-library.fused-kernel-library-import
from transformer_engine.common.recipe import DelayedScaling, Format

try:
    # ok: cuda-library.fused-kernel-library-import
    from liger_kernel.transformers import LigerFusedLinearCrossEntropyLoss
except ImportError:
    LigerFusedLinearCrossEntropyLoss = None

# ok: cuda-library.fused-kernel-library-import
from transformers.models.llama import modeling_llama


def patch_model(model, fp8=False):
    apply_liger_kernel_to_llama(rope=True, rms_norm=True, swiglu=True)
    if fp8:
        recipe = DelayedScaling(fp8_format=Format.HYBRID)
        return te.fp8_autocast(enabled=True, fp8_recipe=recipe)
    return None
