import torch
from torch import nn


def fit(steps=10):
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    optim = torch.optim.SGD(net.parameters(), lr=0.1)
    data = torch.randn(steps, 8, 16)
    for batch in data:
        optim.zero_grad()
        net(batch).square().mean().backward()
        optim.step()
    return net


if __name__ == "__main__":
    fit()
