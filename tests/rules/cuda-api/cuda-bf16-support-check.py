"""Chooses the training dtype."""
import torch


def training_dtype(args):
    # expect: cuda-api.cuda-bf16-support-check
    if args.bf16 and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float16


# ok: cuda-api.cuda-bf16-support-check
torch.cuda.is_bf16_supported = lambda: True


def hint_bf16(args, log):
    if args.fp16 and args.bits == 4:
        # expect-low: cuda-api.cuda-bf16-support-check
        if torch.cuda.is_bf16_supported():
            print("=" * 80)
            print("Your GPU supports bfloat16: train faster with --bf16")
        # expect-medium: cuda-api.cuda-bf16-support-check
        if torch.cuda.is_bf16_supported():
            log.info("using bf16")
            args.dtype = torch.bfloat16
