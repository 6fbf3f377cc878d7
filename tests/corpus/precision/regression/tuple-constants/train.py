import torch
from torch import nn

from ring import RingExchange


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k = RingExchange.apply(k)
        return torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v


def main():
    model = Attention(16)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(2, 8, 16)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
