import torch
from torch import nn


class Router(nn.Module):
    def __init__(self, dim, experts):
        super().__init__()
        self.gate = nn.Linear(dim, experts)

    def forward(self, x):
        scores = self.gate(x)
        with torch.no_grad():
            counts = torch.bincount(scores.argmax(-1))
            torch.cuda.synchronize()
        return scores, counts

    def parallel_forward_once(self, x):
        with torch.no_grad():
            torch.cuda.synchronize()
        return self.gate(x)

    @torch.no_grad()
    def evaluate(self, x):
        torch.cuda.synchronize()
        return self.gate(x)


def train(model, loader, optimizer):
    for x in loader:
        scores, _ = model(x)
        scores.sum().backward()
        optimizer.step()
