import argparse
import os

import torch
from transformers.integrations import is_deepspeed_zero3_enabled


def set_leaf_modules(model):
    from deepspeed.utils import set_z3_leaf_modules

    set_z3_leaf_modules(model, [torch.nn.Linear])


def offload(model, args):
    if is_deepspeed_zero3_enabled() or args.offload_always:
        import deepspeed

        deepspeed.zero.Init(module=model)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offload-always", action="store_false")
    args = parser.parse_args()
    model = torch.nn.Linear(16, 16)
    if is_deepspeed_zero3_enabled() or os.getenv("ACCELERATE_DEEPSPEED_ZERO_STAGE") == "3":
        set_leaf_modules(model)
    offload(model, args)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
