from random import random

from torch import nn


class KarrasDiffusion(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.self_condition = net.self_condition

    def forward(self, images, sigmas):
        self_cond = None
        if self.self_condition and random() < 0.5:
            self_cond = self.net(images, sigmas).detach()
        return self.net(images, sigmas, self_cond).pow(2).mean()
