import torch

from diffusion import GaussianDiffusion1D, LatentDiffusion, Unet1D


def main():
    model = GaussianDiffusion1D(Unet1D())
    latent = LatentDiffusion(Unet1D(), self_condition=True)
    optim = torch.optim.Adam(list(model.parameters()) + list(latent.parameters()), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("x.pt", map_location="cpu"), batch_size=8, drop_last=True)
    for x in loader:
        loss = model(x) + latent(x)
        loss.backward()
        optim.step()
        optim.zero_grad()


if __name__ == "__main__":
    main()
