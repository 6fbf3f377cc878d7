import torch


class PLMSSampler:
    def __init__(self, model):
        self.model = model
        self.betas = torch.linspace(1e-4, 2e-2, 1000).to(torch.device("cuda"))

    @torch.no_grad()
    def sample(self, shape):
        x = torch.randn(shape, device=self.betas.device)
        for beta in self.betas.flip(0):
            x = x - beta * self.model(x)
        return x
