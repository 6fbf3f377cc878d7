"""A root script importing the repo through the `src` package."""
import torch

from src.model import Net


def main():
    model = Net(16).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(100):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
