import torch
from torch import nn

from diffusion import Diffusion


def main():
    diffusion = Diffusion(nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 32))).cuda()
    optimizer = torch.optim.Adam(diffusion.parameters(), lr=1e-4)
    for _ in range(1000):
        loss = diffusion(torch.randn(16, 32, device="cuda"))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
