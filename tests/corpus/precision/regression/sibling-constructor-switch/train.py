import torch

from diffusion import GaussianDiffusion, Unet
from diffusion.decoder import Decoder
from diffusion.unet import Critic


def main():
    model = Unet(dim=64)
    critic = Critic(learned_variance=True)  # the repo turns the other switch on somewhere
    diffusion = GaussianDiffusion(model)
    optimizer = torch.optim.Adam(list(diffusion.parameters()) + list(critic.parameters()), lr=1e-4)
    for step in range(100):
        images = torch.randn(8, 3, 32, 32)
        loss = diffusion(images) + Decoder([model])(images, torch.zeros(8))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
