import torch
from torch import nn


class PretrainWrapper(nn.Module):
    """Resets its synthetic-data generator every N steps, when asked to."""

    def __init__(self, net, reset_generator_every=0):
        super().__init__()
        self.net = net
        self.reset_generator_every = reset_generator_every
        self.register_buffer("step", torch.tensor(0))

    def forward(self, x):
        if self.reset_generator_every > 0 and self.step.item() % self.reset_generator_every == 0:
            torch.manual_seed(int(self.step))
        if self.training and self.step.item() == 0:
            nn.init.zeros_(self.net.bias)
        self.step += 1
        return self.net(x).pow(2).mean()
