"""Fine-tuning script that mixes CUDA-only kernel libraries with portable code."""
import bitsandbytes as bnb
import deepspeed
import torch
import torch.nn.functional as F
import transformer_engine.pytorch as te
import xformers.ops as xops
from apex.normalization import FusedLayerNorm
from deepspeed.utils.zero_to_fp32 import get_fp32_state_dict_from_zero_checkpoint
from liger_kernel.transformers import apply_liger_kernel_to_llama
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        # expect: cuda-library.cuda-only-library-call
        self.norm = FusedLayerNorm(dim)
        # expect: cuda-library.cuda-only-library-call
        self.qkv = te.Linear(dim, 3 * dim)
        # ok: cuda-library.cuda-only-library-call
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        # expect: cuda-library.cuda-only-library-call
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        # expect: cuda-library.cuda-only-library-call
        y = xops.memory_efficient_attention(q, k, v, attn_bias=xops.LowerTriangularMask())
        # ok: cuda-library.cuda-only-library-call
        y = y + F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y)


def build(model, args):
    # expect: cuda-library.cuda-only-library-call
    apply_liger_kernel_to_llama()
    # expect: cuda-library.cuda-only-library-call
    optimizer = bnb.optim.PagedAdamW8bit(model.parameters(), lr=args.lr)
    # expect: cuda-library.cuda-only-library-call
    fused = deepspeed.ops.adam.FusedAdam(model.parameters(), lr=args.lr)
    # ok: cuda-library.cuda-only-library-call
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=optimizer)
    return engine, fused


def export(checkpoint_dir):
    # ok: cuda-library.cuda-only-library-call
    state = get_fp32_state_dict_from_zero_checkpoint(checkpoint_dir)
    # ok: cuda-library.cuda-only-library-call
    torch.save(state, "model.pt")


def dequantize_weight(module):
    """Plain weights pass through; only a base model the caller quantized with bitsandbytes needs bnb."""
    weight = module.weight
    if isinstance(weight, bnb.nn.Params4bit):
        # expect-low: cuda-library.cuda-only-library-call
        return bnb.functional.dequantize_4bit(weight.data, weight.quant_state)
    return weight


def profile_step():
    import xformers.profiler

    # ok: cuda-library.cuda-only-library-call
    xformers.profiler.step()


def train_on_apple_silicon(model_name):
    from unsloth_zoo.log import logger
    from unsloth_zoo.mlx.loader import FastMLXModel
    from unsloth_zoo.utils import Version

    # ok: cuda-library.cuda-only-library-call
    model, tokenizer = FastMLXModel.from_pretrained(model_name, load_in_4bit=True)
    # ok: cuda-library.cuda-only-library-call
    logger.info("loaded")
    # ok: cuda-library.cuda-only-library-call
    newer = Version("2025.1") > Version("2024.12")
    return model, tokenizer, newer
