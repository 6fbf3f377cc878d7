"""Pretraining loop with flash-attn in the model and optional 4-bit loading."""
import argparse

import torch
from flash_attn import flash_attn_func


class Attention(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = torch.nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return flash_attn_func(q, k, v, causal=True)


def build(args):
    model = Attention(64)
    if args.load_in_4bit:
        import bitsandbytes as bnb

        model.qkv = bnb.nn.Linear4bit(64, 192)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--load_in_4bit", action="store_true")
    args = parser.parse_args()
    model = build(args)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(2, 16, 64)).float().pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
