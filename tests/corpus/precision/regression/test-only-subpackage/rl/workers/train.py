import torch

from rl.utils import init_dist


def main():
    init_dist()
    model = torch.nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
