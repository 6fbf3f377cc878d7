import torch
from torch import nn


class Unet(nn.Module):
    def __init__(self, dim, channels=3, self_condition=False, learned_variance=False):
        super().__init__()
        self.channels = channels
        self.self_condition = self_condition
        self.learned_variance = learned_variance
        self.net = nn.Conv2d(channels * (2 if self_condition else 1), channels, 3, padding=1)

    def forward(self, x, t, x_self_cond=None):
        if self.self_condition:
            x_self_cond = x_self_cond if x_self_cond is not None else torch.zeros_like(x)
            x = torch.cat((x_self_cond, x), dim=1)
        return self.net(x)


class Critic(nn.Module):
    def __init__(self, channels=3, learned_variance=False):
        super().__init__()
        self.learned_variance = learned_variance
        self.net = nn.Conv2d(channels, 1, 3, padding=1)
