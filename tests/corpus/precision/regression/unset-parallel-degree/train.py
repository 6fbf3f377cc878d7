import torch
from torch import nn

from config import TrainConfig


def train(cfg: TrainConfig):
    model = nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters())
    if cfg.context_parallel_size > 1:
        torch.cuda.set_device(0)
    if cfg.tensor_parallel_size > 1:
        torch.cuda.set_device(1)
    for _ in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train(TrainConfig())
