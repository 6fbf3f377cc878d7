import random

import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, unets):
        super().__init__()
        self.unets = nn.ModuleList(unets)

    def forward(self, images, t):
        loss = 0.0
        for unet in self.unets:
            self_cond = None
            if unet.self_condition and random.random() < 0.5:
                with torch.no_grad():
                    self_cond = unet(images, t).detach()
            out = unet(images, t, self_cond)
            if unet.learned_variance and random.random() < 0.5:
                out = out.clamp(-1, 1)
            loss = loss + out.pow(2).mean()
        return loss
