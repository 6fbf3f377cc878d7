import torch
from torch import nn

from src.utils.distributed import init_distributed


def main(steps=1000):
    world_size, rank = init_distributed()
    model = nn.Linear(128, 128)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(steps):
        loss = model(torch.randn(8, 128)).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
