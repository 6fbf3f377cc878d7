import torch
from torch.utils.data import DataLoader


def train(model, loader, optimizer, epochs=1):
    for _ in range(epochs):
        for batch in loader:
            optimizer.zero_grad()
            model(batch).mean().backward()
            optimizer.step()


if __name__ == "__main__":
    net = torch.nn.Linear(4, 1)
    train(net, DataLoader(torch.zeros(8, 4), batch_size=2), torch.optim.SGD(net.parameters(), lr=0.1))
