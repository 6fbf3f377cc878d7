import torch
import torch.nn.functional as F
from torch import nn
from torch.amp import autocast


class Diffusion(nn.Module):
    def __init__(self, model: nn.Module, timesteps: int = 1000):
        super().__init__()
        self.model = model
        self.timesteps = timesteps
        self.register_buffer("alphas", torch.linspace(0.999, 0.01, timesteps))

    @autocast("cuda", enabled=False)
    def q_sample(self, x_start, t, noise):
        a = self.alphas[t].view(-1, 1)
        return a.sqrt() * x_start + (1 - a).sqrt() * noise

    def forward(self, x_start):
        t = torch.randint(0, self.timesteps, (x_start.shape[0],), device=x_start.device)
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        return F.mse_loss(self.model(x_noisy), noise)


@autocast("cuda", enabled=False)
def legacy_schedule(timesteps: int):
    return torch.linspace(0.999, 0.01, timesteps)
