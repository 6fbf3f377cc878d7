from random import random

import torch
from torch import nn


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=1000):
        super().__init__()
        self.model = model
        self.channels = self.model.channels
        self.self_condition = self.model.self_condition
        self.learned_variance = self.model.learned_variance
        self.timesteps = timesteps

    def forward(self, img):
        t = torch.randint(0, self.timesteps, (img.shape[0],), device=img.device)
        noise = torch.randn_like(img)
        x = img + noise
        x_self_cond = None
        if self.self_condition and random() < 0.5:
            with torch.no_grad():
                x_self_cond = self.model(x, t).detach()
        out = self.model(x, t, x_self_cond)
        if self.learned_variance and random() < 0.5:
            out = out.clamp(-1, 1)
        return (out - noise).pow(2).mean()
