import torch

from captioner.models.denoiser import Denoiser


def main():
    model = Denoiser(64)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(100):
        x = torch.randn(8, 64)
        out, n = model(x, x > 0)
        out.pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
