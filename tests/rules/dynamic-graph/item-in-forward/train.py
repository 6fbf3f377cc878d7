"""Trains the block without a cache: the cache's forward is not on the training path."""
import torch

from tinylm.model import Block


def main():
    model = Block(64, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(8, 32, 64)
        loss = (model(x) - x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
