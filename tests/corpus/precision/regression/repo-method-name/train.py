import torch
from torch import nn

from distributions import DiagonalGaussian


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv2d(3, 8, 3, padding=1)
        self.decoder = nn.Conv2d(4, 3, 3, padding=1)

    def forward(self, x, sample_posterior=False):
        posterior = DiagonalGaussian(self.encoder(x))
        z = posterior.sample() if sample_posterior else posterior.mode()
        return self.decoder(z)


class VoteHead(nn.Module):
    def forward(self, labels):
        return torch.mode(labels, dim=-1).values


def main():
    model = Autoencoder()
    head = VoteHead()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(1000):
        x = torch.randn(4, 3, 32, 32)
        loss = (model(x) - x).abs().mean() + head(torch.randint(0, 4, (4, 5))).float().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
