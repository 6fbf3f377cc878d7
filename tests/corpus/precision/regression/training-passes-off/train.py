import torch

from pooling import Pooler


def main():
    model = Pooler(16)
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(2, 8, 16)).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
