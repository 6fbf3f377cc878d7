import torch
from torch import nn

from engine import train_one_epoch


def criterion(outputs, targets):
    return {"ce": nn.functional.cross_entropy(outputs, targets), "l2": outputs.square().mean() * 1e-4}


def main():
    model = nn.Linear(32, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 32), torch.randint(0, 4, (8,))) for _ in range(50)]
    for _ in range(100):
        train_one_epoch(model, criterion, loader, optimizer)


if __name__ == "__main__":
    main()
