"""Chooses the training dtype."""
import torch


def training_dtype(args):
    # expect: cuda-api.cuda-bf16-support-check
    if args.bf16 and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float16


# ok: cuda-api.cuda-bf16-support-check
torch.cuda.is_bf16_supported = lambda: True
