"""A subclass runs its base's __init__ and forward through super() (both spellings)."""
import torch
from torch import nn


class Base(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.scale = torch.ones(d, device="cuda")

    def forward(self, x):
        return self.fc(x).to("cuda")


class Sub(Base):
    def __init__(self, d):
        super().__init__(d)
        self.extra = nn.Linear(d, d)

    def forward(self, x):
        return self.extra(super().forward(x))


class Lonely(nn.Module):
    def forward(self, x):
        return x.to("cuda")


class Other(Base):
    def forward(self, x):
        return super(Other, self).forward(x) * 2


def main():
    model = Sub(8)
    other = Other(8)
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(3):
        loss = model(torch.randn(2, 8)).sum() + other(torch.randn(2, 8)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
