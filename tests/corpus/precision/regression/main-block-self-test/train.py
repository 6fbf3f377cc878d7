import torch
from torch import nn

from networks.adapter import Adapter
from networks.probe import Probe


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(1024, 1024), Adapter(1024)).to(device)
    probe = Probe(1024).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(1000):
        x = torch.randn(16, 1024, device=device)
        loss = model(x).square().mean() + probe(x).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
