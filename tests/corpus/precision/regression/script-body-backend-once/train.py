"""A training script whose process group is set up in its __main__ body, as picotron's train.py does."""
import json
import os

import torch
import torch.distributed as dist


class Defaults:
    backend = "nccl"


def train(model, steps):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(steps):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    with open(os.environ.get("CONFIG", "config.json")) as f:
        config = json.load(f)
    backend = "gloo" if config["distributed"]["use_cpu"] else "nccl"
    dist.init_process_group(rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]), backend=backend)
    fallback = "nccl" if torch.cuda.is_available() else "gloo"
    group = dist.new_group(ranks=[0], backend=fallback)
    train(torch.nn.Linear(64, 64), steps=config["steps"])
