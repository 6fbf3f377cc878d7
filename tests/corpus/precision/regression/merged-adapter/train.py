import torch
from torch import nn

from layer import CirculantLinear


def main():
    model = CirculantLinear(nn.Linear(16, 16))
    optimizer = torch.optim.AdamW([model.kernel])
    for _ in range(10):
        loss = model(torch.randn(4, 16)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
