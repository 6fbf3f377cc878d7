"""A benchmark runner whose settings come only from JSON files (no defaults in code)."""
import json
import sys
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class TrainConfig:
    lr: float
    use_amp: bool
    log_memory: bool


def train(train_config: TrainConfig):
    model = nn.Linear(8, 8).to("cuda")
    optimizer = torch.optim.AdamW(model.parameters(), lr=train_config.lr)
    if train_config.use_amp:
        scaler = torch.cuda.amp.GradScaler()
    for _ in range(10):
        loss = model(torch.randn(4, 8, device="cuda")).sum()
        loss.backward()
        optimizer.step()
        if train_config.log_memory:
            print(torch.cuda.max_memory_allocated())


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        train(TrainConfig(**json.load(f)))
