import torch
from torch import nn

from blocklib.blockdiag import block_diag, scatter_ext


class Rotation(nn.Module):
    def __init__(self, blocks: int, size: int):
        super().__init__()
        self.r = nn.Parameter(torch.zeros(blocks, size, size))
        self.scatter = scatter_ext()

    def forward(self, x):
        return x @ block_diag(self.r + torch.eye(self.r.shape[-1]))


def main():
    model = Rotation(4, 8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(2, 32)).pow(2).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
