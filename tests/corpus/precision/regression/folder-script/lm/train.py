import torch
from torch import nn


def main():
    model = nn.Linear(16, 16)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(4, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
