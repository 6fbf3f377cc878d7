import torch
from torch import nn

from engine import build_engine, step_timing


def main():
    model = nn.Linear(64, 64)
    model.weight.data = build_engine(model.weight.data, torch.rand(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        step_timing(loss)


if __name__ == "__main__":
    main()
