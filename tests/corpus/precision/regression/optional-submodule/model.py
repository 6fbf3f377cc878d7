import torch
from torch import nn


def exists(v):
    return v is not None


class Wrapper(nn.Module):
    def __init__(self, dim=256, mixture_of_softmax=False, k=4, memory_tokens=8):
        super().__init__()
        self.net = nn.Linear(dim, dim)
        self.to_mixture = None
        if mixture_of_softmax:
            self.to_mixture = nn.Linear(dim, dim * k)
            self.combine = nn.Linear(dim, k)
        self.memory = None
        if memory_tokens > 0:
            self.memory = nn.Parameter(torch.zeros(memory_tokens, dim))

    def forward(self, x):
        if exists(self.to_mixture):
            weights = self.combine(x).softmax(-1)
            print(weights.amax().item())
            x = self.to_mixture(x)[..., : x.shape[-1]]
        if self.memory is not None:
            print(self.memory.norm().item())
        return self.net(x).mean()
