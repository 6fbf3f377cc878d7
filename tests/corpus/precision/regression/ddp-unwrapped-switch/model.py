from random import random

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel


class Unet(nn.Module):
    def __init__(self, dim=16, self_cond=False, lowres_cond=True):
        super().__init__()
        self.self_cond = self_cond
        self.lowres_cond = lowres_cond
        self.net = nn.Linear(dim * 2, dim)

    def forward(self, x, cond=None):
        return self.net(torch.cat([x, cond if cond is not None else torch.zeros_like(x)], dim=-1))


class Diffusion(nn.Module):
    def __init__(self, unet):
        super().__init__()
        self.unet = unet

    def p_losses(self, unet, x):
        noise = torch.randn_like(x)
        cond = None
        self_cond = unet.module.self_cond if isinstance(unet, DistributedDataParallel) else unet.self_cond

        if self_cond and random() < 0.5:
            with torch.no_grad():
                cond = unet(x + noise).detach()
        lowres = unet.module.lowres_cond if isinstance(unet, DistributedDataParallel) else unet.lowres_cond

        if lowres and random() < 0.5:
            x = x * 0.5
        return (unet(x + noise, cond) - noise).pow(2).mean()

    def forward(self, x):
        return self.p_losses(self.unet, x)
