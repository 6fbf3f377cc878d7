"""A JSON-configured training loop that logs to wandb only when asked."""
import argparse
import json

import torch
from torch import nn


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--use_wandb", action="store_true")
    parser.add_argument("--log_memory", type=bool, default=True)
    return parser.parse_args()


def main():
    args = parse()
    with open(args.config) as f:
        config = json.load(f)
    config["logging"]["use_wandb"] = args.use_wandb
    model = nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(100):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()
        if config["logging"]["use_wandb"]:
            print({"loss": loss.detach(), "memory": torch.cuda.memory_reserved() / 1e9})
        if config["logging"]["log_memory"]:
            print(torch.cuda.max_memory_allocated())


if __name__ == "__main__":
    main()
