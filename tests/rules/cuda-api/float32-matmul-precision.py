"""CLI entry of a training package."""
import torch


def main():
    # expect: cuda-api.float32-matmul-precision
    torch.set_float32_matmul_precision("high")
    # ok: cuda-api.float32-matmul-precision
    torch.set_default_dtype(torch.float32)
