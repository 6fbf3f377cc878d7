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


def supported_precision():
    # Only evaluated when CUDA is there: without it the first operand is true and bf16 is chosen.
    # expect-low: cuda-api.cuda-bf16-support-check
    if not torch.cuda.is_available() or torch.cuda.is_bf16_supported():
        return "bf16-mixed"
    return "16-mixed"


def picked_precision(gpu_ok):
    # `or` after a condition that is no CUDA probe: the check runs on every host.
    # expect-medium: cuda-api.cuda-bf16-support-check
    if gpu_ok or torch.cuda.is_bf16_supported():
        return "bf16-mixed"
    return "16-mixed"
