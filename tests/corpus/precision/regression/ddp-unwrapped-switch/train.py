import torch

from model import Diffusion, Unet


def main():
    model = Diffusion(Unet())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step in range(1000):
        loss = model(torch.randn(8, 16))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
