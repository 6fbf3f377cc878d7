import torch
from torch import nn


class Probe(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        return self.head(x)


if __name__ == "__main__":
    # Trains the probe on its own: scripts/train_probe.sh launches this module.
    probe = Probe(256).cuda()
    optimizer = torch.optim.SGD(probe.parameters(), lr=0.1)
    for step in range(1000):
        x = torch.randn(32, 256).cuda()
        loss = probe(x).logsumexp(-1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
